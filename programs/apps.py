from django.apps import AppConfig
from django.db.models.signals import post_migrate


class ProgramsConfig(AppConfig):
    name = "programs"
    verbose_name = "Training programs"

    def ready(self) -> None:
        # The journal's one undo hands a program revision back to this app (``programs.history``);
        # a migrate gives the existing Coaches and Staff groups the permissions of new models.
        # (Imported here: the app's modules import its models, loaded only once apps are ready.)
        from . import history
        from .admin.groups import refresh_groups

        history.register_with_journal()
        post_migrate.connect(refresh_groups, sender=self)
