from django.apps import AppConfig


class MediaConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "media"
    verbose_name = "Photos and voice"

    def ready(self) -> None:
        # Django's way: signals imports models, which only exist once the registry is ready.
        from . import signals  # noqa: F401  (connects the receiver: a recipe's photo goes with it)
