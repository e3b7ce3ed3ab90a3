from django.apps import AppConfig


class RosterConfig(AppConfig):
    name = "roster"
    verbose_name = "Roster (the coach's workspace)"
