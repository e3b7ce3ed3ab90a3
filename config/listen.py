"""Where the web server listens, and the refusal to listen publicly with the development key.

``HOST`` (default ``127.0.0.1``) is the address the web server binds, under ``bin/run`` (the
supervisor's runserver) and ``bin/serve`` (gunicorn, config/gunicorn.py) alike. A loopback
address is reachable from this machine only. Any other (``0.0.0.0``, ``::``, a LAN address, a
host name) is refused while Django's ``SECRET_KEY`` is the development key written in the source
(or empty): anyone could read it there and forge session cookies and password-reset links.

``python -m config.listen`` checks the environment and exits with status 2 and the reason; bin/run
and bin/serve run it before migrating anything, and the supervisor and gunicorn check again at
start, so no path reaches a public socket with that key.
"""

from __future__ import annotations

import ipaddress
import os
import sys

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

# The SECRET_KEY of config.settings.base when DJANGO_SECRET_KEY is unset. Public: never for a
# server others can reach (config.settings.production refuses it outright).
DEV_SECRET_KEY = "dev-only-insecure-key-change-me"
DEFAULT_HOST = "127.0.0.1"


def host_from(environ: os._Environ[str] | dict[str, str]) -> str:
    return environ.get("HOST", "").strip() or DEFAULT_HOST


def is_loopback(host: str) -> bool:
    """True for an address only this machine can reach: 127.0.0.0/8, ::1, localhost."""
    bare = host.strip().removeprefix("[").removesuffix("]")
    if bare.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(bare).is_loopback
    except ValueError:
        return False  # another host name: it may resolve to a public address


def is_development_key(secret_key: str | None) -> bool:
    return not secret_key or secret_key == DEV_SECRET_KEY


def refusal(host: str, secret_key: str | None) -> str | None:
    """Why the web server must not listen on ``host`` with ``secret_key``, or None if it may."""
    if is_loopback(host) or not is_development_key(secret_key):
        return None
    return (
        f"Refusing to listen on {host}: that address can be reached from other machines, and "
        "Django's SECRET_KEY is the development key written in Spotter's source, with which "
        "anyone could forge sessions and password-reset links. Set DJANGO_SECRET_KEY to a long "
        "random value (python -c 'import secrets; print(secrets.token_urlsafe(50))'), or unset "
        f"HOST to listen on {DEFAULT_HOST} only."
    )


def bind_address(host: str, port: str | int) -> str:
    """``host:port`` as runserver and gunicorn read it (an IPv6 address in brackets)."""
    bare = host.removeprefix("[").removesuffix("]")
    return f"[{bare}]:{port}" if ":" in bare else f"{bare}:{port}"


def host_of_bind(bind: str) -> str | None:
    """The host of one of gunicorn's ``bind`` entries; None for a unix socket or a descriptor."""
    if bind.startswith(("unix:", "fd://")):
        return None
    if bind.startswith("["):
        return bind[1 : bind.index("]")]
    return bind.rsplit(":", 1)[0] if ":" in bind else bind


def configured_secret_key() -> str | None:
    """Django's SECRET_KEY as the settings in DJANGO_SETTINGS_MODULE give it."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    try:
        return settings.SECRET_KEY
    except ImproperlyConfigured:  # an empty SECRET_KEY
        return None


def refusal_from_environment(host: str | None = None) -> str | None:
    return refusal(host or host_from(os.environ), configured_secret_key())


def main() -> None:
    problem = refusal_from_environment()
    if problem:
        print(problem, file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
