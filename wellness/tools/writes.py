"""Wellness tools (seed 004): log a medication or supplement, a mood, the day's readiness; create
a reminder or a care record. They call ``wellness.services`` only.

Tiers (``ToolSpec``): ``log_mood`` and ``log_readiness`` are low, ``log_medication`` is high; the
three need no confirmation, so when the guardrails pass (``coach.guardrails``: confidence, the
athlete's own statement for high ones) the chat writes them at once and shows Undo.
``create_reminder`` waits for Apply; ``create_care_log`` is critical: always confirmed, its card
spells out the date and time to check.

Logs belong to the athlete in the context (never an id from the model), so another athlete's data
can't be reached. A value out of bounds is a VALIDATION_ERROR naming the bounds; nothing is written.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from django.conf import settings

from coach import vocabulary
from coach.tools.base import (
    Outcome,
    ToolContext,
    ToolSpec,
    ToolStateError,
    detail,
    no_target,
    quote,
)
from wellness import services
from wellness.services import WellnessError

from .args import (
    CreateCareLogArgs,
    CreateReminderArgs,
    LogMedicationArgs,
    LogMoodArgs,
    LogReadinessArgs,
    clock,
)
from .words import CARE_WORDS, INJURY_VERBS


def _write(make, *args, **kwargs):
    """A wellness service's write (journaled there, so the batch's Undo removes it)."""
    try:
        return make(*args, **kwargs)
    except WellnessError as exc:
        raise ToolStateError("VALIDATION_ERROR", str(exc), exc.field) from None


def days_text(days: list[int]) -> str:
    if sorted(days) == list(range(1, 8)):
        return "every day"
    if sorted(days) == list(range(1, 6)):
        return "weekdays"
    return ", ".join(vocabulary.DAY_ABBREVIATIONS[d - 1] for d in sorted(days))


def log_medication(*, ctx: ToolContext, args: LogMedicationArgs) -> Outcome:
    log = _write(
        services.log_medication,
        athlete=ctx.athlete,
        name=args.medication_name,
        kind=args.kind,
        dose=args.dose,
        taken_on=args.date,
        taken_time=clock(args.time) if args.time else None,
        part_of_day=args.part_of_day or "",
    )
    when = log.taken_on.isoformat()
    if log.taken_time:
        when += f" {log.taken_time:%H:%M}"
    elif log.part_of_day:
        when += f" ({log.part_of_day})"
    dose = f", {quote(log.dose)}" if log.dose else ""
    text = f"{log.kind} {quote(log.name)}{dose}, taken {when}"
    words = f"{log.kind} {log.name}{f', {log.dose}' if log.dose else ''}, taken {when}"
    return Outcome(
        summary=f"Logged {text}.",
        details=[detail(type="add", target="Medication log", after=words)],
        spoken=f"Logged {words}.",
    )


def log_mood(*, ctx: ToolContext, args: LogMoodArgs) -> Outcome:
    log = _write(
        services.log_mood, athlete=ctx.athlete, mood=args.mood, note=args.note, logged_on=args.date
    )
    note = f" ({quote(log.note)})" if log.note else ""
    text = f"mood {log.mood} on {log.logged_on.isoformat()}{note}"
    return Outcome(
        summary=f"Logged {text}.", details=[detail(type="add", target="Mood log", after=text)]
    )


def log_readiness(*, ctx: ToolContext, args: LogReadinessArgs) -> Outcome:
    log = _write(
        services.log_readiness,
        athlete=ctx.athlete,
        sleep_quality=args.sleep_quality,
        soreness=args.soreness,
        stress=args.stress,
        note=args.note,
        logged_on=args.date,
    )
    text = (
        f"readiness on {log.logged_on.isoformat()}: sleep quality {log.sleep_quality}/5, "
        f"soreness {log.soreness}/5, stress {log.stress}/5"
    )
    return Outcome(
        summary=f"Logged {text}.", details=[detail(type="add", target="Readiness log", after=text)]
    )


def create_reminder(*, ctx: ToolContext, args: CreateReminderArgs) -> Outcome:
    reminder = _write(
        services.create_reminder,
        athlete=ctx.athlete,
        title=args.title,
        time=clock(args.time),
        days=args.days,
    )
    text = f"{quote(reminder.title)} at {reminder.time:%H:%M}, {days_text(reminder.days)}"
    return Outcome(
        summary=f"Created the reminder {text} (the athlete's time zone).",
        details=[detail(type="add", target="Reminder", after=text)],
    )


def create_care_log(*, ctx: ToolContext, args: CreateCareLogArgs) -> Outcome:
    log = _write(
        services.create_care_log,
        athlete=ctx.athlete,
        log_type=args.log_type,
        title=args.title,
        occurred_at=args.occurred_at,
        notes=args.notes,
    )
    tz = services.athlete_tz(ctx.athlete)
    local = log.occurred_at.astimezone(tz)
    when = f"{local:%A %-d %B %Y at %H:%M} ({tz})"
    text = f"{log.log_type}: {quote(log.title)} on {when}"
    return Outcome(
        summary=f"Created the care record {text}.",
        details=[detail(type="add", target=f"Care record ({log.log_type})", after=text)],
        warnings=[f"Check the date and time before applying: {when}."],
    )


# Words that name something taken without naming it ("two pills", "my meds", "400mg").
TAKEN_THINGS = frozenset(
    [
        "medication",
        "medications",
        "medicine",
        "medicines",
        "meds",
        "med",
        "pill",
        "pills",
        "tablet",
        "tablets",
        "capsule",
        "capsules",
        "dose",
        "doses",
        "supplement",
        "supplements",
        "painkiller",
        "painkillers",
        "vitamin",
        "vitamins",
        "shot",
        "injection",
        "jab",
        "drops",
        "puff",
        "puffs",
        "inhaler",
        "mg",
        "mcg",
        "ml",
        "iu",
    ]
)
_DOSE_WORD = re.compile(r"\d+(?:\.\d+)?(?:mg|mcg|ml|iu)")


def medication_words(arguments: dict[str, Any]) -> Callable[[str], bool]:
    """What "took"/"had" must be said of for ``log_medication`` (seed 004: never inferred from
    symptoms): a word of the call's medication name, a word like "pills", or a dose."""
    name = arguments.get("medication_name")
    words = re.findall(r"[a-z0-9]+", name.lower()) if isinstance(name, str) else []
    own = {w for w in words if len(w) > 2} or set(words)

    def accepts(word: str) -> bool:
        return word in own or word in TAKEN_THINGS or bool(_DOSE_WORD.fullmatch(word))

    return accepts


def crisis_message(arguments: dict[str, Any]) -> str:
    """Seed 004: a mood logged as crisis is answered with the deployment's fixed, reviewed message
    (``WELLNESS_CRISIS_MESSAGE``: crisis resources, no diagnosis), never the model's words."""
    return settings.WELLNESS_CRISIS_MESSAGE if arguments.get("mood") == "crisis" else ""


NO_INFERENCE = "Only log what the athlete states in their own words; never infer it from symptoms."
NO_DIAGNOSIS = "Never diagnose or interpret symptoms."


SPECS = [
    ToolSpec(
        name="log_medication",
        description="Log a medication or supplement the athlete says they took.",
        args_model=LogMedicationArgs,
        kind="write",
        requires_confirmation=False,
        sensitivity="high",
        category="wellness",
        logs=True,
        needs_program=False,
        display_name="Log a medication or supplement",
        safety_rules=(
            "Only log if the athlete explicitly says they took it (took, taken, had).",
            "Do not infer medication from symptoms alone.",
        ),
        # "log 400 mg ibuprofen" states it as plainly as "I took" (seed 004's "explicit statement")
        intent_words=(
            "took",
            "taken",
            "had",
            "swallowed",
            "injected",
            "popped",
            "log",
            "logged",
            "record",
        ),
        intent_objects=medication_words,
        stated_example="I took 5 g of creatine this morning",
        execute=log_medication,
        target=no_target,
    ),
    ToolSpec(
        name="log_mood",
        description="Log the athlete's mood as they describe it.",
        args_model=LogMoodArgs,
        kind="write",
        requires_confirmation=False,
        sensitivity="low",
        category="wellness",
        logs=True,
        needs_program=False,
        display_name="Log your mood",
        safety_rules=(
            NO_INFERENCE,
            NO_DIAGNOSIS,
            "For crisis, log it and say nothing else: the app shows the crisis resources.",
        ),
        crisis=crisis_message,
        execute=log_mood,
        target=no_target,
    ),
    ToolSpec(
        name="log_readiness",
        description="Log today's readiness: sleep quality, soreness and stress, each 1-5.",
        args_model=LogReadinessArgs,
        kind="write",
        requires_confirmation=False,
        sensitivity="low",
        category="wellness",
        logs=True,
        needs_program=False,
        display_name="Log your readiness",
        safety_rules=(NO_INFERENCE,),
        execute=log_readiness,
        target=no_target,
    ),
    ToolSpec(
        name="create_reminder",
        description="Create a reminder shown in the chat at a local time on given weekdays.",
        args_model=CreateReminderArgs,
        kind="write",
        requires_confirmation=True,
        sensitivity="low",
        category="wellness",
        logs=True,
        needs_program=False,
        display_name="Create a reminder",
        execute=create_reminder,
        target=no_target,
    ),
    ToolSpec(
        name="create_care_log",
        description="Record a doctor's visit, an injury or a physio session the athlete reports.",
        args_model=CreateCareLogArgs,
        kind="write",
        requires_confirmation=True,
        sensitivity="critical",
        category="wellness",
        logs=True,
        needs_program=False,
        display_name="Create a care record",
        safety_rules=(NO_INFERENCE, NO_DIAGNOSIS, "The athlete checks the date and time."),
        intent_words=(
            "went",
            "visited",
            "saw",
            "seen",
            "had",
            "appointment",
            *INJURY_VERBS,
            *CARE_WORDS,
        ),
        execute=create_care_log,
        target=no_target,
    ),
]
