"""The Celery app. Tasks take ids, load their objects and call services (see coach.tasks)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

app = Celery("spotter")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
