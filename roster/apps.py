from django.apps import AppConfig

from coach.plan import demo_seeded


class RosterConfig(AppConfig):
    name = "roster"
    verbose_name = "Roster (the coach's workspace)"

    def ready(self) -> None:
        # seed_demo sends demo_seeded once every family's DEMO has run: the roster adds its part
        # (a flagged athlete for the demo coach) and computes the flags (``roster.demo``).
        from . import demo

        demo_seeded.connect(demo.seed_roster, dispatch_uid="roster.demo")
