from django.apps import AppConfig


class ChatConfig(AppConfig):
    name = "chat"
    verbose_name = "Chat"

    def ready(self) -> None:
        # Register the Celery tasks in every process, the web server's too: the lifecycle queues
        # the agent by task name (``chat.recovery.AGENT_TASK``), since the task module
        # imports the agent, which calls the lifecycle.
        from . import tasks  # noqa: F401
