"""The access policy's app: its declarations are read once, at start-up (``ready``), not on a
first request."""

from django.apps import AppConfig

from . import policy


class AccessConfig(AppConfig):
    name = "access"
    verbose_name = "Access policy"

    def ready(self) -> None:
        # Every app's models are loaded now, so each family's ``access`` module can be imported:
        # the policy reads their owner kinds here, once, and the first request asks nothing more.
        policy._declarations()
