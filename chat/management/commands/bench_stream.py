"""Benchmark of streamed replies: from the provider's first token to the first character on the page.

    manage.py bench_stream [--runs 20] [--ttft 0.5] [--chunk-delay 0.05]

The real parts on loopback: the production web server (gunicorn with a uvicorn worker on
``config.asgi``, so the ASGI path of the SSE view) with ``config.settings.base``, a ``celery
worker`` process, Redis (``REDIS_URL``, or a private embedded one), the fake OpenAI-compatible
server streaming its default reply (the first chunk after ``--ttft`` seconds, then one word every
``--chunk-delay``), and Debian's chromium driven by Playwright.

For each message the page records (a MutationObserver, ``performance.timeOrigin + now()``) when
the reply's first character appears in the bubble, and the fake server records when it wrote the
first token (``time.time()``, the same clock). The figure is the difference: what the worker,
Redis, the SSE view and the browser add to the provider's own time to first token. The goal is
≤ 100 ms. It also prints message sent → first character, for scale. Runs on the configured
database (migrating it first) and deletes what it created.
"""

from __future__ import annotations

import logging
import os
import shutil
import socket
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from chat.services import conversation_for_athlete
from coach.llm.fake_server import FakeLLMServer
from coach.plan import plan
from config.workers import database_url, worker_on_a_broker

from ._bench_http_seed import _logged_in

GOAL_MS = 100.0
WORDS = "Start light this week: three sets of five at sixty kilos, then add a little each session."

_WATCH = """() => {
  if (window.benchObserver) window.benchObserver.disconnect();
  window.benchFirst = null;
  const seen = new Set([...document.querySelectorAll('.bubble-coach')].map(b => b.id));
  const observer = new MutationObserver(() => {
    if (window.benchFirst !== null) return;
    const streamed = document.querySelector('.bubble-streaming .stream-text');
    const landed = [...document.querySelectorAll('.bubble-coach:not(.bubble-thinking)')]
      .find(b => !seen.has(b.id) && b.textContent.trim());
    if ((streamed && streamed.textContent.length) || landed) {
      window.benchFirst = performance.timeOrigin + performance.now();
      window.benchStreamed = !!(streamed && streamed.textContent.length);
    }
  });
  observer.observe(document.getElementById('messages'),
                   {childList: true, subtree: true, characterData: true});
  window.benchObserver = observer;
}"""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered) + 0.5) - 1))]


class Command(BaseCommand):
    help = "Provider's first token → first character on the page, through the real parts."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--runs", type=int, default=20, help="measured messages")
        parser.add_argument("--ttft", type=float, default=0.5, help="the provider's TTFT, s")
        parser.add_argument("--chunk-delay", type=float, default=0.05, help="between words, s")

    def handle(self, *args: Any, **options: Any) -> None:
        chromium = shutil.which("chromium")
        if chromium is None:
            raise CommandError("chromium is not installed (apt-get install chromium)")
        if options["runs"] < 1:
            raise CommandError("--runs must be at least 1")
        logging.getLogger("httpx").setLevel(logging.WARNING)  # the start-up checks
        call_command("migrate", verbosity=0)
        athlete = get_user_model().objects.create(username=f"bench-{uuid.uuid4().hex[:10]}")
        try:
            plan().bulk(athlete=athlete, weeks=4, sessions=4, exercises=6)
            assert conversation_for_athlete(athlete=athlete) is not None
            cookies = _logged_in(athlete)
            self._run(chromium, cookies, options)
        finally:
            athlete.delete()

    def _run(self, chromium: str, cookies: dict[str, str], options: dict[str, Any]) -> None:
        llm = {"LLM_PROVIDER": "openai", "LLM_MODEL": "bench", "LLM_API_KEY": "bench"}
        with FakeLLMServer(
            protocol="openai",
            default_text=WORDS,
            default_delay=options["ttft"],
            stream_chunk_delay=options["chunk_delay"],
        ) as fake:
            llm["LLM_BASE_URL"] = fake.base_url
            with worker_on_a_broker(env={**llm, "CHAT_STREAMING": "1"}) as (_, log):
                web = self._web_server(log.parent, llm)
                try:
                    samples, totals, streamed = self._drive(
                        chromium, web["url"], cookies, fake, options
                    )
                finally:
                    web["process"].terminate()
                    web["process"].wait(timeout=30)
        self._report(samples, totals, streamed, options)

    def _web_server(self, var_dir: Path, llm: dict[str, str]) -> dict[str, Any]:
        port = _free_port()
        env = {
            **{k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")},
            **llm,
            "DJANGO_SETTINGS_MODULE": "config.settings.base",
            "DATABASE_URL": database_url(),
            "SPOTTER_VAR_DIR": str(var_dir),
            "REDIS_URL": settings.REDIS_URL,
            "CHAT_STREAMING": "1",
            "CHAT_RATE_LIMIT_PER_MINUTE": "0",
            "CELERY_TASK_ALWAYS_EAGER": "0",
            "HOST": "127.0.0.1",
            "PORT": str(port),
            "WEB_CONCURRENCY": "1",
            "ACCESS_LOG": "0",
            "LOG_LEVEL": "WARNING",
        }
        command = [sys.executable, "-m", "gunicorn", "--config", "python:config.gunicorn"]
        output = (var_dir / "web.log").open("wb")
        process = subprocess.Popen(
            [*command, "config.asgi:application"],
            cwd=Path(settings.BASE_DIR),
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                    return {"url": url, "process": process}
            except httpx.TransportError:
                time.sleep(0.1)
        process.terminate()
        raise CommandError("the web server did not start:\n" + (var_dir / "web.log").read_text())

    def _drive(self, chromium, url, cookies, fake, options) -> tuple[list, list, int]:
        from playwright.sync_api import sync_playwright

        # Playwright's sync API runs an event loop in this thread; no ORM call happens meanwhile.
        os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        samples, totals, streamed = [], [], 0
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=chromium, args=["--no-sandbox", "--disable-gpu"]
            )
            context = browser.new_context()
            context.add_cookies(
                [
                    {"name": name, "value": value, "url": url}
                    for name, value in (
                        (settings.SESSION_COOKIE_NAME, cookies["sessionid"]),
                        (settings.CSRF_COOKIE_NAME, cookies["csrftoken"]),
                    )
                ]
            )
            page = context.new_page()
            page.set_default_timeout(60_000)
            page.goto(url + "/")
            for index in range(options["runs"] + 2):  # two warm-ups
                before = len(fake.first_chunk_times)
                page.evaluate(_WATCH)
                sent = time.time()
                page.get_by_role("textbox", name="Message").fill(f"Question {index}?")
                page.get_by_role("button", name="Send", exact=True).click()
                page.wait_for_function("window.benchFirst !== null")
                page.wait_for_selector(".bubble-thinking", state="detached")
                first_char = page.evaluate("window.benchFirst") / 1000
                if len(fake.first_chunk_times) != before + 1:
                    raise CommandError("the provider was not asked to stream exactly once")
                if index < 2:
                    continue
                streamed += bool(page.evaluate("window.benchStreamed"))
                samples.append((first_char - fake.first_chunk_times[-1]) * 1000)
                totals.append((first_char - sent) * 1000)
            browser.close()
        return samples, totals, streamed

    def _report(self, samples, totals, streamed, options) -> None:
        median, p95 = statistics.median(samples), _quantile(samples, 0.95)
        verdict = "meets" if p95 <= GOAL_MS else "misses"
        self.stdout.write(
            f"provider's first token → first character on the page, {len(samples)} messages "
            f"({streamed} streamed), provider TTFT {options['ttft'] * 1000:.0f} ms, "
            f"gunicorn + uvicorn, {'redis' if settings.REDIS_URL else 'embedded Redis'}:\n"
            f"  median {median:.1f} ms   p95 {p95:.1f} ms   min {min(samples):.1f} ms   "
            f"max {max(samples):.1f} ms   (goal ≤ {GOAL_MS:.0f} ms: p95 {verdict} it)\n"
            f"  message sent → first character: median {statistics.median(totals):.0f} ms"
        )
