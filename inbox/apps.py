from django.apps import AppConfig


class InboxConfig(AppConfig):
    name = "inbox"
    verbose_name = "Coach's inbox"

    def ready(self) -> None:
        # The chat names no receiver: the inbox listens to what the chat and its models send.
        from . import receivers, tasks  # noqa: F401  (connects receivers, registers the tasks)
