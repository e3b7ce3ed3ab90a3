from django.apps import AppConfig


class JournalConfig(AppConfig):
    name = "journal"
    verbose_name = "Undo journal"
    default_auto_field = "django.db.models.BigAutoField"
