"""Library tools (seed 003): search the workout library, schedule a workout on the calendar, save
a workout the model composed, and send the athlete to a page.

* ``search_workout_library`` and ``navigate_to_page`` are reads: they answer at once and never
  join a batch. Search results are ``N. "Title" (ID: …)`` lines; titles are quoted, bounded data.
* ``add_workout_to_calendar`` copies a library workout into the program on one date or a daily or
  weekly recurrence (at most 52 dates, each in the week that contains it) through
  ``library.scheduling.schedule_workout_sessions``, so ``programs.services`` bumps the version
  and the apply records one program revision. The preview lists every session it creates.
* ``save_workout_to_library`` is seed 003's ``generate_ai_workout`` done the seed-002 way: tools
  never call a model; the model composes the workout and proposes saving it.

Workouts are looked up as the athlete sees them (``library.access``): their own and their
coaches' shared ones. Anyone else's workout is NOT_FOUND, never PERMISSION_DENIED.

``page_link(arguments)``, the ``page_link`` of ``navigate_to_page``'s spec, turns a successful call
stored on a reply into a ``{"label", "url"}`` pair (``coach.links.page_links``): the chat renders
those as links, never text from the model.
"""

from __future__ import annotations

import json
from typing import Any

from django.urls import reverse
from pydantic import ValidationError

from coach.tools.base import (
    Outcome,
    ToolContext,
    ToolSpec,
    ToolStateError,
    detail,
    no_target,
    quote,
)
from library import services as library_services
from library.access import WorkoutNotFound, get_workout_for
from library.models import LibraryWorkout
from library.scheduling import plan_workout_sessions, schedule_workout_sessions
from library.search import MAX_LIMIT, plain_title, render_search_results, search_workouts

from .args import (
    AddWorkoutToCalendarArgs,
    NavigateToPageArgs,
    SaveWorkoutToLibraryArgs,
    SearchWorkoutLibraryArgs,
)

PAGE_URLS = {
    "home": "chat:home",
    "library": "library:index",
    "calendar": "training:calendar",
    "workout": "library:detail",
    "fitness": "training:fitness",
    "settings": "training:settings",
}
PAGE_LABELS = {
    "home": "Open the chat",
    "library": "Open the workout library",
    "calendar": "Open the calendar",
    "workout": "Open the workout",
    "fitness": "Open the fitness chart",
    "settings": "Open the settings",
}


def _workout(ctx: ToolContext, workout_id: int) -> LibraryWorkout:
    try:
        return get_workout_for(user=ctx.athlete, workout_id=workout_id)
    except WorkoutNotFound as exc:
        raise ToolStateError("NOT_FOUND", str(exc), "workout_id") from None


# --- reads --------------------------------------------------------------------------------------


def search_workout_library(*, ctx: ToolContext, args: SearchWorkoutLibraryArgs) -> Outcome:
    """The best matches among the workouts the athlete may see, best first."""
    try:
        hits = search_workouts(user=ctx.athlete, query=args.query, limit=min(args.limit, MAX_LIMIT))
    except ValueError as exc:
        raise ToolStateError("VALIDATION_ERROR", str(exc), "query") from None
    return Outcome(
        summary=render_search_results(hits, query=args.query, asked=args.limit),
        spoken=_found_in_words(hits, args.query),
    )


def _found_in_words(hits: list[Any], query: str) -> str:
    """The results as a person reads them: title, sport, minutes and intensity, and what to say
    to put one on the calendar (the chat's words; the model reads the IDs)."""
    if not hits:
        return f"No workouts in the library match {plain_title(query)}."
    lines = ["Found these workouts:"]
    lines += [
        f"{n}. {plain_title(h.title)}: {h.sport}, {h.duration_minutes} min, {h.intensity}"
        for n, h in enumerate(hits, 1)
    ]
    lines.append('To put one on your calendar, say e.g. "schedule the first one for Saturday".')
    return "\n".join(lines)


def page_url(page: str, workout_id: int | None = None) -> str:
    if page == "workout":
        return reverse(PAGE_URLS[page], args=[workout_id])
    return reverse(PAGE_URLS[page])


def navigate_to_page(*, ctx: ToolContext, args: NavigateToPageArgs) -> Outcome:
    """A link the athlete can click (shown under the reply); the URL is in the result."""
    if args.page == "workout":
        if args.workout_id is None:
            raise ToolStateError(
                "VALIDATION_ERROR",
                "workout_id is required for page 'workout'; search the library for the IDs.",
                "workout_id",
            )
        workout = _workout(ctx, args.workout_id)
        url = page_url("workout", workout.pk)
        return Outcome(
            summary=f"The workout {quote(workout.title)}: {url} (a link to it is shown under "
            "the reply).",
        )
    url = page_url(args.page)
    return Outcome(summary=f"The {args.page} page: {url} (a link to it is shown under the reply).")


def page_link(arguments: dict[str, Any]) -> dict[str, str] | None:
    """``{"label", "url"}`` of a successful ``navigate_to_page`` call (its ``ToolSpec.page_link``,
    shown under the reply by ``coach.links.page_links``): the arguments are validated again and
    the URL comes from ``reverse``; None for arguments that name no page."""
    try:
        args = NavigateToPageArgs.model_validate(arguments or {})
    except ValidationError:
        return None
    if args.page == "workout" and args.workout_id is None:
        return None
    return {"label": PAGE_LABELS[args.page], "url": page_url(args.page, args.workout_id)}


# --- writes -------------------------------------------------------------------------------------


def add_workout_to_calendar(*, ctx: ToolContext, args: AddWorkoutToCalendarArgs) -> Outcome:
    """One new session per date, copied from the workout; every one is on the preview."""
    if ctx.program is None:
        raise ToolStateError("NOT_FOUND", "The athlete has no program yet to schedule into.")
    workout = _workout(ctx, args.workout_id)
    dates = args.dates()
    at = f" at {args.time:%H:%M}" if args.time else ""
    try:
        plan = plan_workout_sessions(
            program=ctx.program, workout=workout, dates=dates, time=args.time
        )
        schedule_workout_sessions(program=ctx.program, workout=workout, dates=dates, time=args.time)
    except ValueError as exc:
        raise ToolStateError("VALIDATION_ERROR", str(exc), "date") from None
    details = [
        detail(
            type="add",
            target=f"{p.date:%A} {p.date.isoformat()}{at}",
            after=f"{quote(p.name)} as week {p.week_position}, session {p.position}"
            + (f" (same day as {', '.join(quote(n) for n in p.same_day)})" if p.same_day else ""),
        )
        for p in plan.sessions
    ]
    when = ", ".join(p.date.isoformat() for p in plan.sessions) + at
    how = f" ({args.recurrence})" if args.recurrence else ""
    count = len(plan.sessions)
    noun = "session" if count == 1 else "sessions"
    return Outcome(
        summary=f"Scheduled {quote(workout.title)} (ID: {workout.pk}) as {count} {noun}{how}: "
        f"{when}.",
        details=details,
    )


def save_workout_to_library(*, ctx: ToolContext, args: SaveWorkoutToLibraryArgs) -> Outcome:
    """A new private workout in the athlete's library, validated by ``library.services``."""
    try:
        workout = library_services.save_workout_to_library(
            owner=ctx.athlete,
            title=args.title,
            sport=args.sport,
            duration_minutes=args.duration,
            intensity=args.intensity,
            description=args.description,
            template=args.template(),
        )
    except ValueError as exc:
        raise ToolStateError("VALIDATION_ERROR", str(exc)) from None
    parts = [f"{args.sport}, {args.duration} min, {args.intensity}"]
    if args.exercises:
        parts.append(", ".join(f"{e.name} {e.sets}×{e.reps} @ {e.load}" for e in args.exercises))
    if args.cardio:
        parts.append(f"cardio {args.cardio.type} {args.cardio.duration} min")
    return Outcome(
        summary=f"Saved {quote(workout.title)} to the library (ID: {workout.pk}).",
        details=[
            detail(
                type="add",
                target=f"Workout library: {json.dumps(workout.title, ensure_ascii=False)}",
                after="; ".join(parts),
            )
        ],
    )


SPECS = [
    ToolSpec(
        name="search_workout_library",
        looking_at="Searching the workout library…",
        description="Search the athlete's workout library. Returns titles with IDs to schedule.",
        args_model=SearchWorkoutLibraryArgs,
        kind="read",
        requires_confirmation=False,
        sensitivity="low",
        category="library",
        display_name="Search the library",
        execute=search_workout_library,
        target=no_target,
    ),
    ToolSpec(
        name="add_workout_to_calendar",
        description=(
            "Schedule a library workout as new sessions: on date, or daily/weekly until a date "
            "or count times (at most 52)."
        ),
        args_model=AddWorkoutToCalendarArgs,
        kind="write",
        requires_confirmation=True,
        sensitivity="medium",
        category="library",
        display_name="Schedule a library workout",
        safety_rules=("Dates must lie inside the program's weeks.",),
        execute=add_workout_to_calendar,
        target=no_target,
    ),
    ToolSpec(
        name="save_workout_to_library",
        description="Save a workout you composed to the athlete's library.",
        args_model=SaveWorkoutToLibraryArgs,
        kind="write",
        requires_confirmation=True,
        sensitivity="low",
        category="library",
        display_name="Save a workout to the library",
        execute=save_workout_to_library,
        target=no_target,
    ),
    ToolSpec(
        name="navigate_to_page",
        looking_at="Finding the page…",
        description="Show the athlete a link that opens a page of the app.",
        args_model=NavigateToPageArgs,
        kind="read",
        requires_confirmation=False,
        sensitivity="low",
        category="library",
        display_name="Link to a page",
        execute=navigate_to_page,
        target=no_target,
        page_link=page_link,
    ),
]
