"""What ``bin/serve`` runs (gunicorn with uvicorn workers, config/gunicorn.py): ``config.serving``'s
split — async views on the event loop through Django's ASGI handler (their thread-sensitive work on
``ASYNC_THREADS`` threads the process shares), every other request through Django's WSGI handler in
one of ``WEB_THREADS`` threads with a single hand-off (a reply stream too: its wait then runs on
the loop, holding no thread)."""

import os

from django.core.asgi import get_asgi_application
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
# Django's own handlers: bench_http's candidates serve them as they come (its "asgi (before)").
django_application = get_asgi_application()
django_wsgi_application = get_wsgi_application()

# Imported once Django is set up: they read settings.
from config.serving import SharedThreads, Split  # noqa: E402
from config.uploads import BodyLimit  # noqa: E402
from config.write_timeout import EventStreamWriteTimeout  # noqa: E402

# WEB_THREADS: requests one process runs at once on its threads (async views don't take one).
THREADS = int(os.environ.get("WEB_THREADS") or 8)
# The threads that every async view's request shares for its middleware, session and user,
# however many are open.
ASYNC_THREADS = 2

# Request bodies over UPLOAD_MAX_MB are refused here, before anything reads (and spools to disk)
# the whole body; an event stream whose client stops reading ends after CHAT_STREAM_WRITE_TIMEOUT
# seconds.
application = BodyLimit(
    EventStreamWriteTimeout(
        Split(SharedThreads(threads=ASYNC_THREADS), django_wsgi_application, threads=THREADS)
    )
)
