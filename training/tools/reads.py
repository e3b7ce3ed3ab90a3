"""Training read tools: the athlete's activities, sleep, fitness and plan, read at once in the
agent loop (they never join a batch).

Results are data for the model: numbers as compact JSON in the athlete's units, user-written text
(activity names, notes, session names) quoted with ``coach.render.quote``, each result cut to
``MAX_RESULT_CHARS``. Every read is bounded: at most 50 activities (summarised beyond), date
ranges of at most a year, 90 nights of sleep, 62 days of plan. Each activity names its page
(``/training/activities/<id>/``) so a reply can link to it.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.db.models import Count, Q
from django.urls import reverse

from coach.render import bounded_json
from coach.render import quote as render_quote
from coach.tools.base import Outcome, ToolContext, ToolSpec, ToolStateError, no_target
from programs.models import Session
from training import selectors
from training.services import athlete_today, profile_for

from . import words
from .args import (
    MAX_PLAN_DAYS,
    ActivitiesRangeArgs,
    ActivityByDateArgs,
    CompareArgs,
    FitnessArgs,
    LastActivityArgs,
    SleepArgs,
    TrainingPlanArgs,
)

MAX_RESULT_CHARS = 12_000
MAX_PLAN_SESSIONS = 60
FITNESS_YEARS_BACK = 10
_TEXT_KEYS = ("name", "notes")
_BRIEF_KEYS = ("id", "date", "sport", "duration", "pace", "avg_hr", "load")


def _bounded(lines: list[str]) -> str:
    text = "\n".join(lines)
    if len(text) > MAX_RESULT_CHARS:
        text = text[: MAX_RESULT_CHARS - 1] + "…"
    return text


def activity_link(activity_id: int) -> str:
    return reverse("training:activity", args=[activity_id])


def _activity_text(summary: dict[str, Any], *, brief: bool = False) -> str:
    """One activity: its name (quoted), its page and its numbers as JSON; notes quoted apart."""
    numbers = {k: v for k, v in summary.items() if k not in _TEXT_KEYS}
    if brief:
        numbers = {
            k: v
            for k, v in numbers.items()
            if k in _BRIEF_KEYS or k.startswith(("distance_", "speed_"))
        }
    line = (
        f"Activity {summary['id']} {render_quote(summary.get('name', ''), limit=80)} "
        f"(page {activity_link(summary['id'])}): {bounded_json(numbers, limit=1500)}"
    )
    if summary.get("notes") and not brief:
        line += f"\n  notes: {render_quote(summary['notes'])}"
    return line


def _sport(value: str | None) -> str:
    return value.lower() if value else "activity"


def get_last_activity(*, ctx: ToolContext, args: LastActivityArgs) -> Outcome:
    summary = selectors.last_activity(athlete=ctx.athlete, sport=args.activity_type)
    if summary is None:
        return Outcome(summary=f"No {_sport(args.activity_type)} recorded yet.")
    return Outcome(
        summary=_bounded([f"Last {_sport(args.activity_type)}:", _activity_text(summary)]),
        spoken=words.activities_words(f"Your last {words.noun(args.activity_type)}:", [summary]),
    )


def get_activity_by_date(*, ctx: ToolContext, args: ActivityByDateArgs) -> Outcome:
    rows = selectors.activity_on(athlete=ctx.athlete, date=args.date, sport=args.activity_type)
    if not rows:
        return Outcome(summary=f"No {_sport(args.activity_type)} on {args.date.isoformat()}.")
    head = f"{len(rows)} on {args.date.isoformat()}:"
    said = f"Your training on {args.date:%A} {args.date.isoformat()}:"
    return Outcome(
        summary=_bounded([head, *(_activity_text(r) for r in rows)]),
        spoken=words.activities_words(said, rows),
    )


def get_activities_range(*, ctx: ToolContext, args: ActivitiesRangeArgs) -> Outcome:
    data = selectors.activities_between(
        athlete=ctx.athlete, start=args.start_date, end=args.end_date, sport=args.activity_type
    )
    rows = data.pop("activities")
    spoken = words.range_words(data, rows)
    lines = [f"Activities {data['start']} to {data['end']}: {bounded_json(data, limit=500)}"]
    lines += [_activity_text(r, brief=True) for r in rows]
    if data["more"]:
        lines.append(
            f"({data['more']} older not listed; the totals above count all {data['count']}.)"
        )
    return Outcome(summary=_bounded(lines), spoken=spoken)


def _plan_line(session: Session) -> str:
    parts = [
        session.ref,
        session.scheduled_date.isoformat() if session.scheduled_date else "no date",
        session.day_of_week or "",
        render_quote(session.name, limit=80),
    ]
    cardio = getattr(session, "cardio", None)
    if cardio is not None:
        parts.append(f"cardio {cardio.type} {cardio.duration} min {cardio.modality}".strip())
    if session.exercise_count:
        parts.append(f"{session.exercise_count} exercises")
    if session.completed:
        parts.append(f"[completed {session.completed_date or ''}]".replace(" ]", "]"))
    if session.skipped:
        parts.append(f"[skipped: {render_quote(session.skip_reason, limit=100)}]")
    return " ".join(p for p in parts if p)


def get_training_plan(*, ctx: ToolContext, args: TrainingPlanArgs) -> Outcome:
    program = ctx.program
    if program is None:
        raise ToolStateError("NOT_FOUND", "The athlete has no program yet.")
    today = athlete_today(profile=profile_for(athlete=ctx.athlete))
    start = args.start_date or (
        args.end_date - datetime.timedelta(days=13) if args.end_date else today
    )
    end = args.end_date or start + datetime.timedelta(days=13)
    if (end - start).days + 1 > MAX_PLAN_DAYS:
        raise ToolStateError(
            "VALIDATION_ERROR", f"The plan is read at most {MAX_PLAN_DAYS} days at a time."
        )
    in_range = Q(scheduled_date__gte=start, scheduled_date__lte=end)
    undated_in_a_week_of_the_range = Q(
        scheduled_date__isnull=True, week__start_date__lte=end, week__end_date__gte=start
    )
    rows = list(
        Session.objects.filter(in_range | undated_in_a_week_of_the_range, week__program=program)
        .select_related("week", "cardio")
        .annotate(exercise_count=Count("exercises"))
        .order_by("week__position", "position")[: MAX_PLAN_SESSIONS + 1]
    )
    lines = [
        f"Plan {render_quote(program.name, limit=80)} from {start.isoformat()} to "
        f"{end.isoformat()} (today {today.isoformat()}); workout_id first:"
    ]
    lines += [_plan_line(s) for s in rows[:MAX_PLAN_SESSIONS]] or ["no sessions in these dates"]
    spoken = [f"Your plan from {start.isoformat()} to {end.isoformat()}:"]
    spoken += [words.plan_words(s) for s in rows[:MAX_PLAN_SESSIONS]] or ["No sessions."]
    if len(rows) > MAX_PLAN_SESSIONS:
        lines.append(f"(more sessions after the first {MAX_PLAN_SESSIONS}; ask a shorter range)")
        spoken.append(f"(Only the first {MAX_PLAN_SESSIONS} are listed: ask for fewer days.)")
    return Outcome(summary=_bounded(lines), spoken=_bounded(spoken))


def get_sleep_data(*, ctx: ToolContext, args: SleepArgs) -> Outcome:
    data = selectors.sleep_recent(athlete=ctx.athlete, days=args.days)
    if not data["nights"]:
        return Outcome(summary=f"No sleep recorded in the last {args.days} days.")
    return Outcome(
        summary=_bounded(
            [f"Sleep, last {args.days} days:", bounded_json(data, limit=MAX_RESULT_CHARS)]
        ),
        spoken=_bounded([words.sleep_words(data)]),
    )


def get_fitness_scores(*, ctx: ToolContext, args: FitnessArgs) -> Outcome:
    today = athlete_today(profile=profile_for(athlete=ctx.athlete))
    date = args.date or today
    earliest = today.replace(year=today.year - FITNESS_YEARS_BACK)
    latest = today + datetime.timedelta(days=365)
    if not earliest <= date <= latest:
        raise ToolStateError(
            "VALIDATION_ERROR",
            f"date must be from {earliest.isoformat()} to {latest.isoformat()}.",
            "date",
        )
    data = selectors.fitness_on(athlete=ctx.athlete, date=date)
    return Outcome(
        summary=_bounded(
            [
                "Fitness (CTL), Fatigue (ATL) and Form (TSB = yesterday's CTL − ATL); "
                f"chart {reverse('training:fitness')}:",
                bounded_json(data, limit=MAX_RESULT_CHARS),
            ]
        ),
        spoken=words.fitness_words(data),
    )


def compare_activities(*, ctx: ToolContext, args: CompareArgs) -> Outcome:
    if args.activity_ids is not None:
        ids = args.activity_ids
    else:
        found = selectors.activities_between(
            athlete=ctx.athlete, start=args.start_date, end=args.end_date, limit=10
        )
        ids = [a["id"] for a in reversed(found["activities"])]
    if len(ids) < 2:
        raise ToolStateError(
            "NOT_FOUND", f"Only {len(ids)} activity in those dates; comparing needs at least 2."
        )
    data = selectors.compare_activities(athlete=ctx.athlete, ids=ids)
    if len(data["activities"]) < 2:
        raise ToolStateError(
            "NOT_FOUND",
            "Comparing needs at least 2 of the athlete's activities; not found: "
            + ", ".join(str(i) for i in data["missing_ids"])
            + ".",
            "activity_ids",
        )
    lines = ["Side by side (first is the reference):"]
    lines += [_activity_text(a) for a in data["activities"]]
    lines.append(
        "Differences from the first: " + bounded_json(data["differences_from_first"], limit=4000)
    )
    if data["missing_ids"]:
        lines.append("Not found: " + ", ".join(str(i) for i in data["missing_ids"]))
    return Outcome(summary=_bounded(lines), spoken=_bounded([words.compare_words(data)]))


def _read(name: str, description: str, args_model, execute, display: str, looking_at) -> ToolSpec:
    return ToolSpec(
        looking_at=looking_at,
        name=name,
        description=description,
        args_model=args_model,
        kind="read",
        requires_confirmation=False,
        sensitivity="low",
        category="training",
        display_name=display,
        execute=execute,
        target=no_target,
    )


SPECS = [
    _read(
        "get_last_activity",
        "The athlete's most recent activity (optionally of one sport) with all its numbers.",
        LastActivityArgs,
        get_last_activity,
        "Read the last activity",
        words.looking_at_last,
    ),
    _read(
        "get_activity_by_date",
        "The athlete's activities on one date, with all their numbers.",
        ActivityByDateArgs,
        get_activity_by_date,
        "Read a day's activities",
        "Looking at that day's training…",
    ),
    _read(
        "get_activities_range",
        "Activities between two dates (≤ 366 days): totals, and the newest 50 listed.",
        ActivitiesRangeArgs,
        get_activities_range,
        "Read activities in a range",
        "Looking at your recent training…",
    ),
    _read(
        "get_training_plan",
        "Planned sessions by date (≤ 62 days) with their workout_id, done or skipped.",
        TrainingPlanArgs,
        get_training_plan,
        "Read the plan by date",
        "Looking at your training plan…",
    ),
    _read(
        "get_sleep_data",
        "Sleep of the last N nights: duration, score, resting HR, HRV, averages.",
        SleepArgs,
        get_sleep_data,
        "Read sleep",
        "Looking at your sleep…",
    ),
    _read(
        "get_fitness_scores",
        "Fitness (CTL), fatigue (ATL) and form (TSB) on a date, 7-day trend, plan projection.",
        FitnessArgs,
        get_fitness_scores,
        "Read fitness and form",
        "Looking at your fitness and form…",
    ),
    _read(
        "compare_activities",
        "Compare 2-10 activities side by side (by ids, or those in a date range).",
        CompareArgs,
        compare_activities,
        "Compare activities",
        "Comparing your workouts…",
    ),
]
