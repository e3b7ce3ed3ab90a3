"""What the coach's workspace (``roster``) reads of the programs family, declared here and found
by ``roster.discovery``: the current program and week, sessions done against planned, the last
workout, missed sessions and the athlete's own words in their logged sets and cardio.

A rest day (no exercises, no cardio) is never planned nor missed. A session counts as **planned**
in a week when it is dated in it and is not a rest day; **done** when completed. This week only
counts what is **due**: sessions dated before today, and any already completed. A **missed**
session is a planned one dated before today, neither completed nor skipped (a skip has the
athlete's reason). Each read takes every athlete at once.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count, Exists, Max, OuterRef, Q
from django.urls import reverse
from django.utils import timezone

from roster.discovery import Section
from roster.findings import Finding, Limits, pain_finding

from .demo import build_demo_program, monday_of
from .models import AthleteProgram, CardioBlock, Program, Session, SetResult, Week
from .workout_log import session_complete

WEEKS_BACK = 4


def _current_programs(athlete_ids: list[int]) -> dict[int, dict[str, Any]]:
    """The newest program of each athlete (as the chat opens on it): one query."""
    current: dict[int, dict[str, Any]] = {}
    for row in (
        AthleteProgram.objects.filter(athlete_id__in=athlete_ids)
        .order_by("athlete_id", "-created_at", "-pk")
        .values("pk", "athlete_id", "name")
    ):
        current.setdefault(row["athlete_id"], row)
    return current


def _sessions(program_ids: list[int], start: datetime.date, end: datetime.date):
    return (
        Session.objects.filter(
            week__program_id__in=program_ids, scheduled_date__gte=start, scheduled_date__lte=end
        )
        .annotate(
            n_exercises=Count("exercises"),
            has_cardio=Exists(CardioBlock.objects.filter(session=OuterRef("pk"))),
        )
        .filter(Q(n_exercises__gt=0) | Q(has_cardio=True))
    )


def facts(athlete_ids: list[int], today: datetime.date) -> dict[int, dict[str, Any]]:
    current = _current_programs(athlete_ids)
    by_program = {row["pk"]: row["athlete_id"] for row in current.values()}
    monday = today - datetime.timedelta(days=today.weekday())
    start = monday - datetime.timedelta(weeks=WEEKS_BACK)
    out: dict[int, dict[str, Any]] = {
        athlete_id: {
            "program": row["name"],
            "program_id": row["pk"],
            "week": None,
            "this_week": (0, 0),
            "last4": (0, 0),
        }
        for athlete_id, row in current.items()
    }
    for week in Week.objects.filter(
        program_id__in=by_program, start_date__lte=today, end_date__gte=today
    ).values("program_id", "position", "phase"):
        out[by_program[week["program_id"]]]["week"] = f"Week {week['position']}: {week['phase']}"
    counts: dict[int, list[int]] = {athlete_id: [0, 0, 0, 0] for athlete_id in out}
    for row in _sessions(list(by_program), start, monday + datetime.timedelta(days=6)).values(
        "week__program_id", "scheduled_date", "completed"
    ):
        tally = counts[by_program[row["week__program_id"]]]
        if row["scheduled_date"] >= monday:
            if row["completed"] or row["scheduled_date"] < today:
                tally[0] += row["completed"]
                tally[1] += 1
        else:
            tally[2] += row["completed"]
            tally[3] += 1
    for athlete_id, (done, due, done4, planned4) in counts.items():
        out[athlete_id]["this_week"] = (done, due)
        out[athlete_id]["last4"] = (done4, planned4)
    for row in (
        Session.objects.filter(week__program__athlete_id__in=athlete_ids, completed=True)
        .values("week__program__athlete_id")
        .annotate(last=Max("completed_date"), planned=Max("scheduled_date"))
    ):
        last = row["last"] or row["planned"]
        entry = out.setdefault(row["week__program__athlete_id"], {})
        entry["last_workout"] = last
        entry["last_active"] = last
    return out


def _program_link(program_id: int) -> str:
    return reverse("admin:programs_program_change", args=[program_id])


def findings(athlete_ids: list[int], today: datetime.date, limits: Limits) -> list[Finding]:
    found: list[Finding] = []
    current = _current_programs(athlete_ids)
    by_program = {row["pk"]: row["athlete_id"] for row in current.values()}
    since = today - datetime.timedelta(days=limits.missed_days)
    missed: dict[int, list[dict[str, Any]]] = {}
    for row in (
        _sessions(list(by_program), since, today - datetime.timedelta(days=1))
        .filter(completed=False, skipped=False)
        .order_by("scheduled_date", "pk")
        .values("pk", "name", "scheduled_date", "week__program_id")
    ):
        missed.setdefault(by_program[row["week__program_id"]], []).append(row)
    for athlete_id, rows in missed.items():
        if len(rows) < limits.missed_sessions:
            continue
        names = ", ".join(f"{row['scheduled_date']:%a %d %b} {row['name']}" for row in rows)
        found.append(
            Finding(
                athlete_id=athlete_id,
                kind="missed",
                evidence_key=f"missed:{rows[0]['pk']}",
                summary=f"{len(rows)} sessions missed in the last {limits.missed_days} days",
                occurred_on=rows[-1]["scheduled_date"],
                source="calendar",
                excerpt=names,
                link=_program_link(rows[0]["week__program_id"]),
            )
        )
    note_since = today - datetime.timedelta(days=limits.note_days)
    for row in (
        SetResult.objects.filter(
            exercise__session__week__program__athlete_id__in=athlete_ids,
            logged_at__date__gte=note_since,
        )
        .exclude(notes="")
        .values(
            "pk",
            "notes",
            "logged_at",
            "exercise__name",
            "exercise__session__week__program_id",
            "exercise__session__week__program__athlete_id",
        )
    ):
        finding = pain_finding(
            athlete_id=row["exercise__session__week__program__athlete_id"],
            key=f"setresult:{row['pk']}",
            text=f"{row['exercise__name']}: {row['notes']}",
            source="workout note",
            on=timezone.localdate(row["logged_at"]),
            link=_program_link(row["exercise__session__week__program_id"]),
            limits=limits,
        )
        if finding:
            found.append(finding)
    for row in (
        Session.objects.filter(
            week__program__athlete_id__in=athlete_ids,
            scheduled_date__gte=note_since,
            scheduled_date__lte=today,
        )
        .filter(Q(cardio__notes__gt="") | Q(skipped=True))
        .values(
            "pk",
            "name",
            "scheduled_date",
            "cardio__notes",
            "skip_reason",
            "week__program_id",
            "week__program__athlete_id",
        )
    ):
        text = " ".join(filter(None, [row["cardio__notes"], row["skip_reason"]]))
        finding = pain_finding(
            athlete_id=row["week__program__athlete_id"],
            key=f"session:{row['pk']}",
            text=f"{row['name']}: {text}",
            source="workout note",
            on=row["scheduled_date"],
            link=_program_link(row["week__program_id"]),
            limits=limits,
        )
        if finding:
            found.append(finding)
    return found


RECENT_SESSIONS = 10


def sections(athlete: Any, today: datetime.date) -> list[Section]:
    """The athlete's recent workouts with their notes, and their programs' change history (the
    programs admin's History, with its undo)."""
    recent = list(
        Session.objects.filter(week__program__athlete=athlete, scheduled_date__lte=today)
        .filter(Q(completed=True) | Q(skipped=True))
        .select_related("week__program", "cardio")
        .prefetch_related("exercises__sets")
        .order_by("-scheduled_date", "-pk")[:RECENT_SESSIONS]
    )
    programs = list(AthleteProgram.objects.filter(athlete=athlete).order_by("-created_at", "-pk"))
    return [
        Section("Recent workouts", "programs/coaching/recent.html", {"sessions": recent}, 30),
        Section("Change history", "programs/coaching/history.html", {"programs": programs}, 60),
    ]


# --- the roster's demo (``roster.demo`` runs ``DEMO_PARTS`` after every family's ``DEMO``) -------

DEMO_FLAGGED = "jamie"
DEMO_FLAGGED_PROGRAM = "Strength Block (Jamie)"
KNEE_NOTE = "Left knee is sore after the lunges, felt it on the stairs too."


def demo_flagged_athlete(seed: Any) -> None:
    """A second athlete of the demo coach who needs them: the demo program from two Mondays
    before this week, logged up to a week ago and nothing since (a missed week), and a sore knee
    in the notes of their last logged set. Idempotent: an existing one is kept."""
    coach = seed.people.get("coach")
    if coach is None:
        return
    athlete, created = get_user_model().objects.get_or_create(
        username=DEMO_FLAGGED,
        defaults={"first_name": "Jamie", "email": f"{DEMO_FLAGGED}@example.com"},
    )
    if not created or Program.objects.filter(athlete=athlete).exists():
        seed.people["flagged"] = athlete
        seed.lines.append(f"Kept {athlete.username}, the demo coach's flagged athlete.")
        return
    athlete.set_unusable_password()
    athlete.save(update_fields=["password"])
    start = monday_of(seed.today) - datetime.timedelta(weeks=2)
    program = build_demo_program(
        athlete=athlete, coach=coach, start_date=start, name=DEMO_FLAGGED_PROGRAM
    )
    last_done = None
    cutoff = seed.today - datetime.timedelta(days=7)
    for session in (
        Session.objects.filter(week__program=program, scheduled_date__lt=cutoff)
        .select_related("cardio")
        .annotate(n_exercises=Count("exercises"))
        .order_by("scheduled_date", "position")
    ):
        if session.n_exercises or hasattr(session, "cardio"):
            minutes = session.cardio.duration if hasattr(session, "cardio") else 60
            session_complete(
                session=session,
                on=session.scheduled_date,
                rating=3,
                duration_min=minutes,
                bump=False,
            )
            if session.n_exercises:
                last_done = session
    if last_done is not None:
        SetResult.objects.create(
            exercise=last_done.exercises.filter(name__icontains="lunge").first()
            or last_done.exercises.order_by("position").first(),
            set_number=1,
            reps=8,
            notes=KNEE_NOTE,
        )
    seed.people["flagged"] = athlete
    line = (
        f"Created {athlete.username}, coached by {coach.username}: nothing logged for a week and "
        "a sore knee in the notes (the roster flags them)."
    )
    seed.lines.append(line)
    seed.created.add(line)


DEMO_PARTS = [demo_flagged_athlete]
