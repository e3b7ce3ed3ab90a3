"""The HTTP transport both remote providers share: time-outs, retries, and error classification.

One ``HttpTransport`` wraps an ``httpx.Client`` with a connect and a read time-out. ``post_json``
sends one JSON request and retries, with exponential back-off and jitter, on

* HTTP 429, 500, 502, 503, 504 and 529 (Anthropic's "overloaded"),
* connect errors and time-outs,

up to ``max_retries`` extra attempts. A server's ``retry-after-ms`` or ``Retry-After`` (seconds or
an HTTP date) — or OpenRouter's ``error.availability.retry_after`` in the body — is honoured when it
is at most ``max_retry_wait`` seconds; when the server asks for longer, the transport gives up at
once with that error (``retry_after`` set) instead of sleeping for minutes. ``x-should-retry`` sent
by Anthropic overrides the status rule, as both official SDKs do.

Never retried: 400, 401, 403, 404, and OpenAI's 429 whose ``error.code`` is
``insufficient_quota`` (kind ``quota``): waiting does not refill a billing account.

``sleep`` is injectable so tests record the waits instead of sleeping.
"""

from __future__ import annotations

import abc
import email.utils
import json
import random
import time
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any

import httpx

from coach.llm.base import LLMError, LLMResponse, Turn
from coach.llm.textformat import TOOL_FORMATS, text_request

RETRYABLE_STATUSES = frozenset({429, 500, 502, 503, 504, 529})
BACKOFF_BASE = 0.5  # seconds; attempt n waits about BACKOFF_BASE * 2**n
BACKOFF_CAP = 8.0

_ANTHROPIC_ERROR_KINDS = {
    "overloaded_error": "overloaded",
    "rate_limit_error": "rate_limit",
    "authentication_error": "auth",
    "permission_error": "auth",
    "invalid_request_error": "bad_request",
    "not_found_error": "bad_request",
    "request_too_large": "bad_request",
    "api_error": "server",
    "timeout_error": "timeout",
}


def parse_retry_after(headers: Mapping[str, str], *, now: float | None = None) -> float | None:
    """Seconds the server asks us to wait: ``retry-after-ms`` first, then ``Retry-After`` as
    seconds (floats allowed) or an HTTP date. ``None`` when absent or unreadable."""
    lowered = {k.lower(): v for k, v in headers.items()}
    raw_ms = lowered.get("retry-after-ms")
    if raw_ms:
        try:
            return max(float(raw_ms) / 1000.0, 0.0)
        except ValueError:
            pass
    raw = lowered.get("retry-after")
    if not raw:
        return None
    try:
        return max(float(raw), 0.0)
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(raw)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    current = now if now is not None else datetime.now(UTC).timestamp()
    return max(when.timestamp() - current, 0.0)


def _decode_json(body: bytes | str | Any) -> Any:
    if isinstance(body, bytes | str):
        try:
            return json.loads(body)
        except (json.JSONDecodeError, UnicodeDecodeError):
            return None
    return body


def error_from_response(
    status: int, body: bytes | str | Any, headers: Mapping[str, str] | None = None
) -> LLMError:
    """Classify one error response (any provider's shape) as an ``LLMError``.

    ``body`` may be raw bytes/text or already-decoded JSON. Also used for the ``error`` object
    OpenRouter puts in a 200 body and in a stream chunk, where the real status is in the body."""
    headers = headers or {}
    data = _decode_json(body)
    error = data.get("error") if isinstance(data, dict) else None
    if not isinstance(error, dict):
        error = {}
    message = str(error.get("message") or "").strip()

    # The status the error really carries: OpenRouter puts it in the body of a 200.
    code = error.get("code")
    if status < 400:
        if isinstance(code, int) and code >= 400:
            status = code
        elif isinstance(error.get("http_status"), int):
            status = error["http_status"]

    retry_after = parse_retry_after(headers)
    availability = error.get("availability") if isinstance(error.get("availability"), dict) else {}
    if retry_after is None and isinstance(availability.get("retry_after"), int | float):
        retry_after = float(availability["retry_after"])

    anthropic_type = (
        error.get("type") if isinstance(data, dict) and data.get("type") == "error" else None
    )
    if anthropic_type in _ANTHROPIC_ERROR_KINDS:
        kind = _ANTHROPIC_ERROR_KINDS[anthropic_type]
    elif code == "insufficient_quota" or error.get("type") == "insufficient_quota":
        kind = "quota"
    elif status == 429 or error.get("error_type") == "rate_limit_exceeded":
        kind = "rate_limit"
    elif status == 529:
        kind = "overloaded"
    elif status == 408:
        kind = "timeout"
    elif status in (401, 403):
        kind = "auth"
    elif 400 <= status < 500:
        kind = "bad_request"
    elif status >= 500:
        kind = "server"
    else:
        kind = "protocol"

    if kind == "quota":
        retryable = False
    else:
        retryable = status in RETRYABLE_STATUSES or kind in ("rate_limit", "overloaded")
        if isinstance(availability.get("retryable"), bool):
            retryable = availability["retryable"]
        should_retry = {k.lower(): v for k, v in headers.items()}.get("x-should-retry")
        if should_retry == "true":
            retryable = True
        elif should_retry == "false":
            retryable = False

    if not message:
        message = f"The model server answered HTTP {status}."
    return LLMError(
        message,
        kind=kind,
        retryable=retryable,
        status=status if status >= 400 else None,
        retry_after=retry_after,
    )


class HttpTransport:
    """POSTs JSON with time-outs and bounded retries; returns the decoded JSON body."""

    def __init__(
        self,
        *,
        connect_timeout: float = 5.0,
        read_timeout: float = 60.0,
        max_retries: int = 3,
        max_retry_wait: float = 20.0,
        sleep: Callable[[float], None] = time.sleep,
        rand: Callable[[], float] = random.random,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.max_retries = max(0, int(max_retries))
        self.max_retry_wait = float(max_retry_wait)
        self.sleep = sleep
        self.rand = rand
        timeout = httpx.Timeout(read_timeout, connect=connect_timeout)
        self.client = httpx.Client(timeout=timeout, transport=transport)
        self.attempts = 0  # requests sent by the last post_json call

    def close(self) -> None:
        self.client.close()

    def backoff(self, attempt: int) -> float:
        """Exponential back-off with jitter (75%–100% of the step), capped."""
        step = min(BACKOFF_BASE * (2**attempt), BACKOFF_CAP, self.max_retry_wait)
        return step * (0.75 + 0.25 * self.rand())

    def post_json(self, url: str, *, headers: Mapping[str, str], payload: dict[str, Any]) -> Any:
        body = json.dumps(payload).encode()
        send_headers = {"content-type": "application/json", **headers}
        self.attempts = 0
        attempt = 0
        while True:
            self.attempts += 1
            error = self._attempt(url, send_headers, body)
            if not isinstance(error, LLMError):
                return error
            if not error.retryable or attempt >= self.max_retries:
                raise error
            if error.retry_after is not None and error.retry_after > self.max_retry_wait:
                raise LLMError(
                    f"{error} The server asked to wait {error.retry_after:g} s, longer than the "
                    f"{self.max_retry_wait:g} s this app waits.",
                    kind=error.kind if error.kind in ("rate_limit", "overloaded") else "rate_limit",
                    retryable=True,
                    status=error.status,
                    retry_after=error.retry_after,
                )
            if error.retry_after is not None and error.retry_after > 0:
                wait = error.retry_after
            else:
                wait = self.backoff(attempt)
            self.sleep(wait)
            attempt += 1

    def _attempt(self, url: str, headers: dict[str, str], body: bytes) -> Any:
        """One request: the decoded JSON on success, or the ``LLMError`` describing the failure."""
        try:
            response = self.client.post(url, headers=headers, content=body)
        except httpx.TimeoutException as exc:
            return LLMError(
                f"The model server did not answer in time ({type(exc).__name__}).",
                kind="timeout",
                retryable=True,
            )
        except httpx.TransportError as exc:
            return LLMError(
                f"Could not reach the model server at {url} ({type(exc).__name__}: {exc}).",
                kind="connection",
                retryable=True,
            )
        if response.status_code >= 400:
            return error_from_response(response.status_code, response.content, response.headers)
        data = _decode_json(response.content)
        if not isinstance(data, dict):
            return LLMError(
                f"The model server answered HTTP {response.status_code} with a body that is not a "
                "JSON object.",
                kind="protocol",
                retryable=False,
                status=response.status_code,
            )
        if isinstance(data.get("error"), dict) or data.get("type") == "error":
            return error_from_response(response.status_code, data, response.headers)
        return data


class HttpProvider(abc.ABC):
    """What the HTTP providers share: the model settings, the retrying transport and one model
    call. A subclass gives ``url``, ``headers()``, ``build_request()`` and ``parse()``.

    ``tool_format="native"`` sends the tools in the protocol's own ``tools`` field;
    ``tool_format="text"`` describes them in the system prompt and sends the history as plain
    text instead (``coach.llm.textformat``), for models without tool support. Either way the
    response's ``[TOOL_CALL:...]`` markers come back as tool calls (``parse()``)."""

    name = ""
    offline = False

    def __init__(
        self,
        *,
        base_url: str,
        model: str,
        api_key: str = "",
        max_tokens: int = 1024,
        connect_timeout: float = 5.0,
        read_timeout: float = 60.0,
        max_retries: int = 3,
        max_retry_wait: float = 20.0,
        sleep: Callable[[float], None] = time.sleep,
        transport: httpx.BaseTransport | None = None,
        tool_format: str = "native",
    ) -> None:
        if tool_format not in TOOL_FORMATS:
            raise ValueError(
                f'tool_format is "{tool_format}"; use one of: {", ".join(TOOL_FORMATS)}.'
            )
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.api_key = api_key
        self.max_tokens = max_tokens
        self.tool_format = tool_format
        self.http = HttpTransport(
            connect_timeout=connect_timeout,
            read_timeout=read_timeout,
            max_retries=max_retries,
            max_retry_wait=max_retry_wait,
            sleep=sleep,
            transport=transport,
        )

    @property
    @abc.abstractmethod
    def url(self) -> str:
        """Given by each provider."""

    @abc.abstractmethod
    def headers(self) -> dict[str, str]:
        """Given by each provider."""

    @abc.abstractmethod
    def build_request(
        self, *, system: str, turns: list[Turn], tools: list[dict[str, Any]]
    ) -> dict[str, Any]:
        """Given by each provider."""

    @abc.abstractmethod
    def parse(self, data: dict[str, Any]) -> LLMResponse:
        """Given by each provider."""

    def request_body(
        self, *, system: str, turns: list[Turn], tools: list[dict[str, Any]]
    ) -> dict[str, Any]:
        """The JSON body of one call, in this provider's tool format."""
        if self.tool_format == "text":
            system, turns, tools = text_request(system=system, turns=turns, tools=tools)
        return self.build_request(system=system, turns=turns, tools=tools)

    def complete(
        self, *, system: str, turns: list[Turn], tools: list[dict[str, Any]]
    ) -> LLMResponse:
        payload = self.request_body(system=system, turns=turns, tools=tools)
        started = time.monotonic()
        data = self.http.post_json(self.url, headers=self.headers(), payload=payload)
        response = self.parse(data)
        response.model = response.model or self.model
        response.latency_ms = int((time.monotonic() - started) * 1000)
        return response

    def close(self) -> None:
        self.http.close()
