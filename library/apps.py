from django.apps import AppConfig

from journal.signals import changed


class LibraryConfig(AppConfig):
    name = "library"
    verbose_name = "Workout library and calendar feed"

    def ready(self) -> None:
        # Every committed change (and undo) numbers the athlete's calendar feed at once, so a moved
        # session is numbered by the change that moved it (``library.feed``). The journal sends
        # the signal; nothing that changes sessions names the library.
        from . import feed

        changed.connect(feed.renumber_after_change, dispatch_uid="library.feed.renumber")
