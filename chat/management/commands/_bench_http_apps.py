"""The ASGI applications ``bench_http`` serves for its comparison candidates (never in production)."""

from a2wsgi import WSGIMiddleware

from config.asgi import THREADS, django_application, django_wsgi_application
from config.serving import is_async_path
from config.uploads import BodyLimit
from config.write_timeout import EventStreamWriteTimeout

# The design before issue 23: Django's ASGI handler for every request.
django_asgi = BodyLimit(EventStreamWriteTimeout(django_application))

_a2wsgi = WSGIMiddleware(django_wsgi_application, workers=THREADS)


async def _split(scope, receive, send):
    if scope["type"] == "http" and not is_async_path(scope["path"]):
        await _a2wsgi(scope, receive, send)
    else:
        await django_application(scope, receive, send)


# config.asgi's split with a2wsgi's adapter in place of config.serving.OneHandOff.
a2wsgi_split = BodyLimit(EventStreamWriteTimeout(_split))
