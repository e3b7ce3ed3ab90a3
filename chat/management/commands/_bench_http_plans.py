"""The requests ``bench_http`` sends, endpoint by endpoint, and the same requests run in-process.

Reads repeat on the demo athlete (``seed``); each POST is a fresh message or a fresh batch's Apply,
so every (design, round) and the in-process run get their own group of writer athletes.
"""

from __future__ import annotations

import io
import sys
import time
from urllib.parse import urlencode

from django.core.wsgi import get_wsgi_application

from ._bench_http_client import Request

ENDPOINTS = (
    "trivial view",
    "GET /",
    "plan offer",
    "feed",
    "poll",
    "post",
    "Apply",
)
POSTS = ("post", "Apply")


def headers_for(cookies: dict[str, str], *, htmx: bool = True) -> tuple[tuple[str, str], ...]:
    cookie = "; ".join(f"{k}={v}" for k, v in cookies.items())
    extra = (("X-CSRFToken", cookies["csrftoken"]), ("HX-Request", "true")) if htmx else ()
    return (("Cookie", cookie), *extra)


def feed_path(seeded: dict) -> str:
    return f"/conversations/{seeded['conversation']}/feed/?after={seeded['pending_message']}"


def requests_for(endpoint: str, seeded: dict, *, count: int, writers: list[dict]) -> list[Request]:
    """``count`` requests of ``endpoint`` (one per writer for the POSTs)."""
    main = headers_for(seeded["cookies"])
    reads = {
        "trivial view": Request("GET", "/healthz"),
        "GET /": Request("GET", "/", headers_for(seeded["cookies"], htmx=False)),
        "plan offer": Request("GET", "/plan/offer/", main),
        "feed": Request("GET", feed_path(seeded), main),
        "poll": Request("GET", f"/messages/{seeded['pending_message']}/", main),
    }
    if endpoint in reads:
        return [reads[endpoint]] * count
    if endpoint == "post":
        return [
            Request(
                "POST",
                f"/conversations/{w['conversation']}/messages/",
                headers_for(w["cookies"]),
                urlencode({"text": "How should my squat feel this week?"}).encode(),
            )
            for w in writers
        ]
    return [
        Request(
            "POST",
            f"/batches/{w['batch']}/apply/",
            headers_for(w["cookies"]),
            urlencode({"revision": w["revision"], "program_version": w["version"]}).encode(),
        )
        for w in writers
    ]


def environ_for(request: Request) -> dict:
    """The WSGI environ a server would build for ``request``."""
    path, _, query = request.path.partition("?")
    environ = {
        "REQUEST_METHOD": request.method,
        "SCRIPT_NAME": "",
        "PATH_INFO": path,
        "QUERY_STRING": query,
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "80",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "HTTP_HOST": "127.0.0.1",
        "CONTENT_LENGTH": str(len(request.body)),
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(request.body),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": False,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    if request.body or request.method == "POST":
        environ["CONTENT_TYPE"] = "application/x-www-form-urlencoded"
    for name, value in request.headers:
        environ["HTTP_" + name.upper().replace("-", "_")] = value
    return environ


def in_process(plans: dict[str, list[Request]], *, rounds: int) -> dict[str, float]:
    """CPU ms a request of each endpoint costs through Django's WSGI handler called directly in
    this process (no server): the floor a served request is compared with. Reads run ``rounds``
    times over, interleaved (the lowest round counts: the machine is shared); POSTs once."""
    app = get_wsgi_application()
    statuses: list[str] = []

    def start_response(status, headers, exc_info=None):
        statuses.append(status)

    def one_pass(requests: list[Request]) -> float:
        cpu = time.process_time()
        for request in requests:
            response = app(environ_for(request), start_response)
            b"".join(response)
            response.close()
        return (time.process_time() - cpu) * 1000 / len(requests)

    for requests in plans.values():  # warm: templates, connections, caches
        if requests[0].method == "GET":
            one_pass(requests[:5])
    figures: dict[str, list[float]] = {name: [] for name in plans}
    for _ in range(rounds):
        for name, requests in plans.items():
            if requests[0].method == "GET" or not figures[name]:
                figures[name].append(one_pass(requests))
    bad = [s for s in statuses if not s.startswith(("2", "3"))]
    if bad:
        raise RuntimeError(f"in-process requests failed: {bad[:5]}")
    return {name: min(values) for name, values in figures.items()}
