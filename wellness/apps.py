from django.apps import AppConfig


class WellnessConfig(AppConfig):
    name = "wellness"
    verbose_name = "Wellness"
