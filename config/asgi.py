import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
django_application = get_asgi_application()

# Imported once Django is set up: both read settings.
from config.uploads import BodyLimit  # noqa: E402
from config.write_timeout import EventStreamWriteTimeout  # noqa: E402

# Request bodies over UPLOAD_MAX_MB are refused here, before Django's handler reads (and spools
# to disk) the whole body ahead of any view; an event stream whose client stops reading ends after
# CHAT_STREAM_WRITE_TIMEOUT seconds.
application = BodyLimit(EventStreamWriteTimeout(django_application))
