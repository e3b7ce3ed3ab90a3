from django.apps import AppConfig


class ProgramsConfig(AppConfig):
    name = "programs"
    verbose_name = "Training programs"

    def ready(self) -> None:
        # The journal's one undo hands a program revision back to this app (``programs.history``).
        from . import history

        history.register_with_journal()
