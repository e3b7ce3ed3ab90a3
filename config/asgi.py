import os

from django.core.asgi import get_asgi_application

from config.write_timeout import EventStreamWriteTimeout

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
# An event stream whose client stops reading ends after CHAT_STREAM_WRITE_TIMEOUT seconds.
application = EventStreamWriteTimeout(get_asgi_application())
