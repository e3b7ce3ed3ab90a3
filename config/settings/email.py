"""Outgoing mail (the password-reset page sends it), from the environment.

With nothing set, mail is printed on the web process's standard output (Django's console
backend), so "Forgot your password?" works on one machine and the link can be copied from the log.
For real delivery set either ``EMAIL_URL`` (``smtp://user:password@host:587`` for STARTTLS,
``smtps://user:password@host:465`` for TLS from the start, ``smtp://host:25`` for neither;
user and password percent-encoded) or ``EMAIL_HOST`` with ``EMAIL_PORT``, ``EMAIL_HOST_USER``,
``EMAIL_HOST_PASSWORD``, ``EMAIL_USE_TLS`` / ``EMAIL_USE_SSL``. ``EMAIL_BACKEND`` overrides the
choice; ``DEFAULT_FROM_EMAIL`` is the sender.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import unquote, urlsplit

CONSOLE = "django.core.mail.backends.console.EmailBackend"
SMTP = "django.core.mail.backends.smtp.EmailBackend"
_TRUE = {"1", "true", "yes", "on"}


def email_settings(environ: Mapping[str, str]) -> dict[str, Any]:
    """The EMAIL_* settings for ``environ``; a malformed EMAIL_URL is a ValueError naming it."""
    values: dict[str, Any] = {
        "EMAIL_BACKEND": CONSOLE,
        "DEFAULT_FROM_EMAIL": environ.get("DEFAULT_FROM_EMAIL") or "Spotter <spotter@localhost>",
        "EMAIL_TIMEOUT": int(environ.get("EMAIL_TIMEOUT") or 10),
    }
    values["SERVER_EMAIL"] = values["DEFAULT_FROM_EMAIL"]
    url = environ.get("EMAIL_URL", "").strip()
    if url:
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps", "submission") or not parts.hostname:
            raise ValueError(
                f"EMAIL_URL must look like smtp://user:password@host:587 or smtps://host:465 "
                f"(got scheme {parts.scheme!r})."
            )
        ssl = parts.scheme == "smtps"
        port = parts.port or (465 if ssl else 587 if parts.scheme == "submission" else 25)
        values.update(
            EMAIL_BACKEND=SMTP,
            EMAIL_HOST=parts.hostname,
            EMAIL_PORT=port,
            EMAIL_HOST_USER=unquote(parts.username or ""),
            EMAIL_HOST_PASSWORD=unquote(parts.password or ""),
            EMAIL_USE_SSL=ssl,
            EMAIL_USE_TLS=not ssl and port != 25,
        )
    elif environ.get("EMAIL_HOST", "").strip():
        ssl = environ.get("EMAIL_USE_SSL", "").strip().lower() in _TRUE
        values.update(
            EMAIL_BACKEND=SMTP,
            EMAIL_HOST=environ["EMAIL_HOST"].strip(),
            EMAIL_PORT=int(environ.get("EMAIL_PORT") or (465 if ssl else 587)),
            EMAIL_HOST_USER=environ.get("EMAIL_HOST_USER", ""),
            EMAIL_HOST_PASSWORD=environ.get("EMAIL_HOST_PASSWORD", ""),
            EMAIL_USE_SSL=ssl,
            EMAIL_USE_TLS=not ssl and environ.get("EMAIL_USE_TLS", "1").strip().lower() in _TRUE,
        )
    if environ.get("EMAIL_BACKEND"):
        values["EMAIL_BACKEND"] = environ["EMAIL_BACKEND"]
    return values
