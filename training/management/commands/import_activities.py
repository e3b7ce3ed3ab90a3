"""python manage.py import_activities PATH... --athlete USERNAME"""

from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from training.importers import FileFormatError
from training.importers.limits import check_size
from training.imports import import_files


class Command(BaseCommand):
    help = (
        "Import activity and sleep files (FIT, GPX, TCX, Strava activities.csv, Garmin "
        "Activities.csv, Spotter CSV, sleep CSV) for an athlete. Each file is imported whole or "
        "not at all; duplicates are skipped. Exit status 1 when any file failed."
    )

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="+", help="files to import")
        parser.add_argument("--athlete", required=True, help="the athlete's username")

    def handle(self, *args, paths, athlete, **options):
        user = get_user_model().objects.filter(username=athlete).first()
        if user is None:
            raise CommandError(f"No user named {athlete!r}.")
        unreadable = []

        def files():  # read one at a time, each checked for size before it is read
            for path in map(Path, paths):
                try:
                    check_size(path.stat().st_size)
                    yield path.name, path.read_bytes()
                except OSError as exc:
                    unreadable.append(f"{path.name}: FAILED cannot be read ({exc.strerror})")
                except FileFormatError as exc:
                    unreadable.append(f"{path.name}: FAILED {exc}")

        report = import_files(
            athlete=user, files=files(), on_file=lambda result: self.stdout.write(result.line)
        )
        for line in unreadable:
            self.stdout.write(line)
        failed = report.failed + len(unreadable)
        self.stdout.write(
            f"imported {report.activities} activities, {report.sleep} sleep records, "
            f"skipped {report.duplicates} duplicates, {failed} files failed"
        )
        if failed:
            raise SystemExit(1)
