"""Benchmark of one chat turn's latency through the real parts.

A real ``celery worker`` process (on REDIS_URL, or a private embedded Redis) and a zero-latency
fake OpenAI-compatible server over HTTP (``coach.llm.fake_server``). For each message:
from the athlete's message being saved to the coach's reply being saved (``Message.finished_at -
user message created_at``, both written by the database's clock). One athlete sends every message,
so the rate limit is lifted here. The prompt's size per turn is ``bench_tokens``'s.

Runs on the configured database (migrating it first) and deletes what it created.
"""

from __future__ import annotations

import statistics
import time
import uuid
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import connection
from django.test import override_settings

from chat.models import Message
from chat.services import conversation_for_athlete, message_send
from coach.llm.fake_server import FakeLLMServer
from coach.plan import plan
from config.workers import worker_on_a_broker


def _percentile(values: list[float], pct: float) -> float:
    ordered = sorted(values)
    index = max(0, min(len(ordered) - 1, round(pct / 100 * len(ordered) + 0.5) - 1))
    return ordered[index]


class Command(BaseCommand):
    help = "Median/p95 message→reply latency through the real worker."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--messages", type=int, default=40, help="measured messages")

    def handle(self, *args: Any, **options: Any) -> None:
        call_command("migrate", verbosity=0)
        athlete = get_user_model().objects.create(username=f"bench-{uuid.uuid4().hex[:10]}")
        try:
            with override_settings(CHAT_RATE_LIMIT_PER_MINUTE=0):
                self._latency(athlete, options["messages"])
        finally:
            athlete.delete()

    def _latency(self, athlete, count: int) -> None:
        program = plan().bulk(athlete=athlete, weeks=4, sessions=6, exercises=8)
        conversation = conversation_for_athlete(athlete=athlete)
        assert conversation is not None and conversation.program_id == program.pk
        with (
            FakeLLMServer(protocol="openai", default_text="OK.\n---\nThanks") as fake,
            worker_on_a_broker(
                env={"LLM_PROVIDER": "openai", "LLM_BASE_URL": fake.base_url, "LLM_MODEL": "bench"}
            ),
        ):
            self.split: list[float] = []
            samples = [self._one(conversation, i) for i in range(count + 3)][3:]  # 3 warm-ups
            in_agent = self.split[3:]
        broker = "redis" if settings.REDIS_URL else "embedded Redis (unix socket)"
        self.stdout.write(
            f"message → reply saved, {count} messages, {connection.vendor}, {broker}, "
            f"zero-latency fake provider:\n"
            f"  median {statistics.median(samples):.1f} ms   p95 {_percentile(samples, 95):.1f} ms"
            f"   min {min(samples):.1f} ms   max {max(samples):.1f} ms\n"
            f"  of which in the agent (claim → reply saved): median "
            f"{statistics.median(in_agent):.1f} ms; the rest is queueing and delivery"
        )

    def _one(self, conversation, index: int, timeout: float = 60.0) -> float:
        user_message, placeholder = message_send(
            conversation=conversation, text=f"Question {index}?"
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            reply = (
                Message.objects.filter(pk=placeholder.pk)
                .values("status", "started_at", "finished_at")
                .get()
            )
            if reply["status"] in (Message.Status.COMPLETE, Message.Status.FAILED):
                if reply["status"] == Message.Status.FAILED:
                    raise RuntimeError(f"reply {placeholder.pk} failed")
                ms = lambda a, b: (b - a).total_seconds() * 1000  # noqa: E731
                self.split.append(ms(reply["started_at"], reply["finished_at"]))
                return ms(user_message.created_at, reply["finished_at"])
            time.sleep(0.002)
        raise RuntimeError(f"no reply within {timeout} s: is the worker running?")
