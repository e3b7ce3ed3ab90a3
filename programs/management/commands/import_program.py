"""``manage.py import_program PATH --athlete USERNAME [--coach USERNAME] [--name NAME]``

PATH holds a program in seed 000's JSON: a list of weeks, or an object with ``weeks`` and
optional ``name`` and ``startDate`` (what ``export_program`` prints is accepted too). Every week
is validated with the same models as the ``add_week`` tool. Ids, logged results and completion
flags in the file are ignored: an import creates a plan. The new program's id is the last line
printed. A bad file or an unknown user prints the reasons and creates nothing (exit status 1):
a file that isn't UTF-8, JSON nested deeper than a program, a name with a NUL character, or more
than 520 weeks (the most the tools reach) is refused with the reason.
"""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from pydantic import Field, ValidationError

from coach.schemas import StrictModel
from coach.validation import validation_errors
from programs import services
from programs.history import program_change
from programs.models import RevisionVia
from programs.tools.args import MAX_WEEKS, WeekInput, week_tree_spec

from ._program_files import read_json

# Keys an export carries that are results or derived, not plan: dropped before validation.
_DROP = {
    "week": {"id"},
    "session": {"id", "startedAt", "completed", "completedDate", "duration", "rating"},
    "exercise": {"id", "sets", "skipped"},
    "cardio": {"completed", "actualDuration", "avgHeartRate"},
}


class ProgramFile(StrictModel):
    # The tools reach week MAX_WEEKS: a longer program could never be changed from the chat.
    weeks: list[WeekInput] = Field(min_length=1, max_length=MAX_WEEKS)


def _program_name(name: str, where: str) -> str:
    """A program name PostgreSQL can store and a person can read (NUL is refused)."""
    if "\x00" in name:
        raise CommandError(f"The program name ({where}) must not contain NUL characters.")
    if len(name) > 200:
        raise CommandError(
            f"The program name ({where}) must be at most 200 characters; it has {len(name)}."
        )
    return name


def _drop(data: Any, level: str) -> Any:
    if not isinstance(data, dict):
        return data
    return {k: v for k, v in data.items() if k not in _DROP[level]}


def normalise_weeks(weeks: Any) -> Any:
    """Remove export-only keys so an exported program imports cleanly; leave anything else for
    the validator to judge."""
    if not isinstance(weeks, list):
        return weeks
    out = []
    for week in weeks:
        week = _drop(week, "week")
        if isinstance(week, dict) and isinstance(week.get("sessions"), list):
            sessions = []
            for session in week["sessions"]:
                session = _drop(session, "session")
                if isinstance(session, dict):
                    if session.get("dayOfWeek") == "":
                        session["dayOfWeek"] = None
                    if isinstance(session.get("exercises"), list):
                        session["exercises"] = [_drop(e, "exercise") for e in session["exercises"]]
                    if isinstance(session.get("cardio"), dict):
                        session["cardio"] = _drop(session["cardio"], "cardio")
                sessions.append(session)
            week = {**week, "sessions": sessions}
        out.append(week)
    return out


def parse_program_file(data: Any) -> tuple[list[WeekInput], str | None, datetime.date | None]:
    """``(weeks, name, start_date)`` from a decoded file, or CommandError naming every problem."""
    name = start = None
    if isinstance(data, dict):
        unknown = set(data) - {"weeks", "name", "startDate", "id", "athlete", "version"}
        if unknown:
            raise CommandError(
                f"Unknown top-level keys: {', '.join(sorted(unknown))}. "
                "Expected weeks, and optionally name and startDate."
            )
        if "weeks" not in data:
            raise CommandError("The file must hold a list of weeks or an object with 'weeks'.")
        name = data.get("name")
        if name is not None and (not isinstance(name, str) or not name.strip()):
            raise CommandError("name must be non-empty text.")
        if name is not None:
            name = _program_name(name, "name")
        raw_start = data.get("startDate")
        if raw_start is not None:
            try:
                start = datetime.date.fromisoformat(str(raw_start))
            except ValueError as exc:
                raise CommandError(
                    f"startDate must be an ISO date like 2026-11-02 (got {raw_start!r})."
                ) from exc
        weeks = data["weeks"]
    elif isinstance(data, list):
        weeks = data
    else:
        raise CommandError("The file must hold a list of weeks or an object with 'weeks'.")
    try:
        parsed = ProgramFile.model_validate({"weeks": normalise_weeks(weeks)})
    except ValidationError as exc:
        problems = "\n".join(f"  - {e.message}" for e in validation_errors(exc, ProgramFile))
        raise CommandError(f"The program file is not valid:\n{problems}") from exc
    return parsed.weeks, name, start


def _user(username: str, role: str):
    User = get_user_model()
    try:
        return User.objects.get(**{User.USERNAME_FIELD: username})
    except User.DoesNotExist as exc:
        raise CommandError(f"There is no user {username!r} (given as --{role}).") from exc


class Command(BaseCommand):
    help = "Import a program from seed-000 JSON (a list of weeks or {name, startDate, weeks})."

    def add_arguments(self, parser) -> None:
        parser.add_argument("path", help="JSON file, or - for standard input")
        parser.add_argument("--athlete", required=True, help="username of the athlete")
        parser.add_argument("--coach", help="username of the coach")
        parser.add_argument("--name", help="program name (default: the file's name)")

    def handle(self, *args: Any, **options: Any) -> None:
        data = read_json(options["path"])
        weeks, file_name, start = parse_program_file(data)
        athlete = _user(options["athlete"], "athlete")
        coach = _user(options["coach"], "coach") if options.get("coach") else None
        if options.get("name"):
            _program_name(options["name"], "--name")
        name = options.get("name") or file_name or Path(options["path"]).stem or "Imported program"
        with transaction.atomic():
            program = services.program_create(
                athlete=athlete,
                coach=coach,
                name=name[:200],
                start_date=start or weeks[0].startDate,
            )
            with program_change(
                program=program,
                actor=coach,
                via=RevisionVia.IMPORT,
                summary=f"Imported {len(weeks)} weeks from {Path(options['path']).name}"[:500],
            ):
                services.weeks_tree_insert(
                    program=program, position=1, specs=[week_tree_spec(w) for w in weeks]
                )
        self.stdout.write(f"Imported {len(weeks)} weeks as {name!r} for {athlete.get_username()}.")
        self.stdout.write(str(program.pk))
