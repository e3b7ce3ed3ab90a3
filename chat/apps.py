from django.apps import AppConfig

from journal.signals import changed


class ChatConfig(AppConfig):
    name = "chat"
    verbose_name = "Chat"

    def ready(self) -> None:
        # Register the Celery tasks in every process, the web server's too: the task module
        # registers the agent's task with ``chat.recovery`` (``runs_agent``), which queues it by
        # reference; the task module imports the agent, which reaches the lifecycle, so the
        # registration points from the task down, never back.
        from . import tasks  # noqa: F401
        from .proposals import journal_changed

        changed.connect(journal_changed, dispatch_uid="chat.proposals.journal_changed")
