"""What ``bin/serve`` runs (gunicorn with uvicorn workers, config/gunicorn.py): ``config.serving``'s
split — async views on the event loop through Django's ASGI handler, every other request through
Django's WSGI handler in one of ``WEB_THREADS`` threads with a single hand-off."""

import os

from django.core.asgi import get_asgi_application
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
django_application = get_asgi_application()
django_wsgi_application = get_wsgi_application()

# Imported once Django is set up: they read settings.
from config.serving import Split  # noqa: E402
from config.uploads import BodyLimit  # noqa: E402
from config.write_timeout import EventStreamWriteTimeout  # noqa: E402

# WEB_THREADS: requests one process runs at once on its threads (async views don't take one).
THREADS = int(os.environ.get("WEB_THREADS") or 8)

# Request bodies over UPLOAD_MAX_MB are refused here, before anything reads (and spools to disk)
# the whole body; an event stream whose client stops reading ends after CHAT_STREAM_WRITE_TIMEOUT
# seconds.
application = BodyLimit(
    EventStreamWriteTimeout(Split(django_application, django_wsgi_application, threads=THREADS))
)
