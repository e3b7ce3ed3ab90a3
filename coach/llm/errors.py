"""Classifying a model server's errors (any provider's shape) as ``LLMError``: the kind, whether
trying again may help, and how long the server asks us to wait. Used for HTTP error responses, for
the ``error`` object OpenRouter puts in a 200 body, and for errors in the middle of a stream."""

from __future__ import annotations

import email.utils
import json
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from coach.llm.base import LLMError

RETRYABLE_STATUSES = frozenset({429, 500, 502, 503, 504, 529})

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


def decode_json(body: bytes | str | Any) -> Any:
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
    data = decode_json(body)
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
