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

With a ``Deadline`` (``coach.llm.base``: the turn's one total time) every request's connect and
read time-outs are cut to what is left of it, no request is sent once it is spent, and a retry
whose wait would pass it is not made (``DeadlineExceeded``, kind ``timeout``); a streamed answer
stops as soon as it is spent. Its ``still_wanted`` is asked before each request, so a turn whose
reply was failed meanwhile makes no further request (``TurnAbandoned``).

``sleep`` is injectable so tests record the waits instead of sleeping.
"""

from __future__ import annotations

import abc
import contextlib
import json
import random
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import httpx

from coach.llm.base import Deadline, LLMError, LLMResponse, Turn
from coach.llm.errors import (  # noqa: F401 (parse_retry_after is part of this module's API)
    RETRYABLE_STATUSES,
    decode_json,
    error_from_response,
    parse_retry_after,
)
from coach.llm.textformat import TOOL_FORMATS, text_request

BACKOFF_BASE = 0.5  # seconds; attempt n waits about BACKOFF_BASE * 2**n
BACKOFF_CAP = 8.0


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
        self.connect_timeout = float(connect_timeout)
        self.read_timeout = float(read_timeout)
        timeout = httpx.Timeout(read_timeout, connect=connect_timeout)
        self.client = httpx.Client(timeout=timeout, transport=transport)
        self.attempts = 0  # requests sent by the last post_json call

    def close(self) -> None:
        self.client.close()

    def backoff(self, attempt: int) -> float:
        """Exponential back-off with jitter (75%–100% of the step), capped."""
        step = min(BACKOFF_BASE * (2**attempt), BACKOFF_CAP, self.max_retry_wait)
        return step * (0.75 + 0.25 * self.rand())

    def timeout(self, deadline: Deadline | None) -> httpx.Timeout:
        """The time-outs of one request: the configured ones, cut to what is left of
        ``deadline``. Checks the deadline first (``Deadline.check``)."""
        if deadline is None:
            return httpx.Timeout(self.read_timeout, connect=self.connect_timeout)
        deadline.check()
        return httpx.Timeout(
            deadline.cap(self.read_timeout), connect=deadline.cap(self.connect_timeout)
        )

    def _wait(self, error: LLMError, wait: float, deadline: Deadline | None) -> None:
        """Sleep ``wait`` before a retry, unless that would pass ``deadline``."""
        if deadline is not None and wait >= deadline.remaining():
            raise deadline.exceeded() from error
        self.sleep(wait)

    def post_json(
        self,
        url: str,
        *,
        headers: Mapping[str, str],
        payload: dict[str, Any],
        deadline: Deadline | None = None,
    ) -> Any:
        body = json.dumps(payload).encode()
        send_headers = {"content-type": "application/json", **headers}
        self.attempts = 0
        attempt = 0
        while True:
            timeout = self.timeout(deadline)
            self.attempts += 1
            error = self._attempt(url, send_headers, body, timeout)
            if not isinstance(error, LLMError):
                return error
            if error.retryable and deadline is not None and deadline.spent:
                raise deadline.exceeded() from error
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
            self._wait(error, wait, deadline)
            attempt += 1

    @contextlib.contextmanager
    def stream(
        self,
        url: str,
        *,
        headers: Mapping[str, str],
        payload: dict[str, Any],
        deadline: Deadline | None = None,
    ) -> Iterator[Iterator[str] | dict[str, Any]]:
        """POST ``payload`` and yield the response's lines as they arrive (an SSE body), or the
        decoded JSON when the server answered with one (a server that ignores ``stream``).

        Opening the stream is retried as ``post_json`` is (statuses, connect errors, time-outs);
        once the server has answered 200 nothing is retried, so text already shown is never
        sent twice: an error in the middle of the stream reaches the caller."""
        body = json.dumps(payload).encode()
        send_headers = {"content-type": "application/json", "accept": "text/event-stream"}
        send_headers.update(headers)
        self.attempts = 0
        attempt = 0
        while True:
            timeout = self.timeout(deadline)
            self.attempts += 1
            outcome = self._open_stream(url, send_headers, body, timeout)
            if not isinstance(outcome, LLMError):
                break
            error = outcome
            if error.retryable and deadline is not None and deadline.spent:
                raise deadline.exceeded() from error
            if not error.retryable or attempt >= self.max_retries:
                raise error
            if error.retry_after is not None and error.retry_after > self.max_retry_wait:
                raise error
            wait = error.retry_after if error.retry_after else self.backoff(attempt)
            self._wait(error, wait, deadline)
            attempt += 1
        response, context = outcome
        try:
            if "json" in response.headers.get("content-type", ""):
                data = decode_json(response.read())
                if not isinstance(data, dict):
                    raise LLMError(
                        "The model server answered with a body that is not a JSON object.",
                        kind="protocol",
                        retryable=False,
                    )
                yield data
            else:
                yield self._lines(response, deadline)
        finally:
            context.__exit__(None, None, None)

    def _open_stream(
        self, url: str, headers: dict[str, str], body: bytes, timeout: httpx.Timeout
    ) -> Any:
        context = self.client.stream("POST", url, headers=headers, content=body, timeout=timeout)
        try:
            response = context.__enter__()
        except httpx.TransportError as exc:  # timeouts included
            return _unreached(url, exc)
        if response.status_code >= 400:
            try:
                content = response.read()
            finally:
                context.__exit__(None, None, None)
            return error_from_response(response.status_code, content, response.headers)
        return response, context

    @staticmethod
    def _lines(response: httpx.Response, deadline: Deadline | None = None) -> Iterator[str]:
        try:
            for line in response.iter_lines():
                if deadline is not None and deadline.spent:
                    raise deadline.exceeded()
                yield line
        except httpx.TimeoutException as exc:
            if deadline is not None and deadline.spent:
                raise deadline.exceeded() from exc
            raise LLMError(
                f"The model server stopped sending in the middle of its answer "
                f"({type(exc).__name__}).",
                kind="timeout",
                retryable=True,
            ) from exc
        except httpx.TransportError as exc:
            raise LLMError(
                f"The connection to the model server broke in the middle of its answer "
                f"({type(exc).__name__}).",
                kind="connection",
                retryable=True,
            ) from exc

    def _attempt(
        self, url: str, headers: dict[str, str], body: bytes, timeout: httpx.Timeout
    ) -> Any:
        """One request: the decoded JSON on success, or the ``LLMError`` describing the failure."""
        try:
            response = self.client.post(url, headers=headers, content=body, timeout=timeout)
        except httpx.TransportError as exc:  # timeouts included
            return _unreached(url, exc)
        if response.status_code >= 400:
            return error_from_response(response.status_code, response.content, response.headers)
        data = decode_json(response.content)
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
    streams = True  # ``complete(on_text=...)`` streams the text as the model writes it
    takes_deadline = True  # ``complete(deadline=...)`` bounds the call and its retries

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

    @abc.abstractmethod
    def stream_request(self, payload: dict[str, Any]) -> dict[str, Any]:
        """The body of a streamed call: ``payload`` with this protocol's ``stream`` fields."""

    @abc.abstractmethod
    def parse_stream(self, lines: Iterator[str], on_text: Callable[[str], None]) -> LLMResponse:
        """Read a streamed answer, calling ``on_text`` with each piece of text as it arrives."""

    def request_body(
        self, *, system: str, turns: list[Turn], tools: list[dict[str, Any]]
    ) -> dict[str, Any]:
        """The JSON body of one call, in this provider's tool format."""
        if self.tool_format == "text":
            system, turns, tools = text_request(system=system, turns=turns, tools=tools)
        return self.build_request(system=system, turns=turns, tools=tools)

    def complete(
        self,
        *,
        system: str,
        turns: list[Turn],
        tools: list[dict[str, Any]],
        on_text: Callable[[str], None] | None = None,
        deadline: Deadline | None = None,
    ) -> LLMResponse:
        """One model call. With ``on_text`` the answer is streamed and each piece of its text is
        passed to ``on_text`` as it arrives; the returned response is the same either way.
        ``deadline`` bounds the call with its retries (see the module docstring)."""
        payload = self.request_body(system=system, turns=turns, tools=tools)
        started = time.monotonic()
        if on_text is None:
            response = self.parse(
                self.http.post_json(
                    self.url, headers=self.headers(), payload=payload, deadline=deadline
                )
            )
        else:
            with self.http.stream(
                self.url,
                headers=self.headers(),
                payload=self.stream_request(payload),
                deadline=deadline,
            ) as body:
                if isinstance(body, dict):  # the server ignored ``stream``
                    response = self.parse(body)
                    if response.text:
                        on_text(response.text)
                else:
                    response = self.parse_stream(body, on_text)
        response.model = response.model or self.model
        response.latency_ms = int((time.monotonic() - started) * 1000)
        return response

    def close(self) -> None:
        self.http.close()


def _unreached(url: str, exc: httpx.TransportError) -> LLMError:
    """The request never got an answer: the server was too slow, or couldn't be reached."""
    if isinstance(exc, httpx.TimeoutException):
        return LLMError(
            f"The model server did not answer in time ({type(exc).__name__}).",
            kind="timeout",
            retryable=True,
        )
    return LLMError(
        f"Could not reach the model server at {url} ({type(exc).__name__}: {exc}).",
        kind="connection",
        retryable=True,
    )
