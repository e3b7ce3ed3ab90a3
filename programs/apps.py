from django.apps import AppConfig


class ProgramsConfig(AppConfig):
    name = "programs"
    verbose_name = "Training programs"
