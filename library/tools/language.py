"""The library family in everyday words (``coach.llm.offline.language``): search the workout
library ("got any good leg workouts?"), put a workout on the calendar ("put Leg Day Destroyer on
my calendar for tomorrow", "schedule that one every week for three weeks"), save a workout typed
in a sentence, and open a page ("take me to my calendar").

Workouts are named by their titles as the athlete may see them (``library.access``); "that one",
"the first one" or "the second one" are the results of the search just shown, in its order. A
date is today, tomorrow, the day after tomorrow, a weekday (the next one), "in N days" or an ISO
date; a schedule that names no date is asked, never guessed."""

from __future__ import annotations

import datetime
import re
from typing import Any

from django.db.models import Max

from coach.llm.offline.grammar import CommandError, Parsed
from coach.llm.offline.language import (
    Ask,
    Intent,
    Language,
    NotMeant,
    Slots,
    World,
    rest_of_message,
)
from library.access import visible_workouts
from library.recurrence import MAX_OCCURRENCES
from library.search import search_workouts
from library.search_terms import SHORT_MINUTES

from .said import count_said, date_said, workout_from_words

PAGES = [
    *((w, "calendar") for w in ("calendar", "schedule", "training calendar", "my week")),
    *((w, "library") for w in ("library", "workout library", "workouts", "my workouts")),
    *((w, "fitness") for w in ("fitness", "fitness chart", "fitness page", "form chart")),
    *((w, "fitness") for w in ("fitness and fatigue chart", "training load", "chart")),
    *((w, "settings") for w in ("settings", "setting", "profile", "preferences", "account")),
    *((w, "home") for w in ("home", "chat", "home page", "start page")),
]
ORDINALS = [
    *((w, 0) for w in ("that one", "that workout", "the first one", "the first")),
    *((w, 0) for w in ("the top one", "the first workout", "the one you found", "this one")),
    *((w, 1) for w in ("the second one", "the second", "the second workout", "number two")),
    *((w, 2) for w in ("the third one", "the third", "the third workout", "number three")),
]
_NOUN = (
    "(workout|workouts|session|sessions|routine|routines|training|plan|plans|stuff|exercises|"
    "ideas|workout ideas|options|circuit|circuits|class|classes)"
)
# How long, said around the kind of workout ("under 30 min", "for 20 minutes", "20-minute"): the
# search reads no minutes, so it is taken out of the words searched and a short one (at most
# ``SHORT_MINUTES``) becomes the search's own duration hint, "quick".
_LENGTH = re.compile(
    r"\b(?:(?:for|under|in|of|less\s+than|within|around|about|max|at\s+most|lasting|no\s+more"
    r"\s+than|no\s+longer\s+than|that\s+takes|that's|thats|taking)\s+)?(?:an?\s+)?"
    r"(?P<n>\d+|half\s+an?|an?)\s*(?:-\s*)?(?P<unit>min|mins|minutes?|hours?|hrs?|h)\b"
    r"(?:\s+(?:or\s+less|or\s+under|max|tops|long|or\s+so))?",
    re.I,
)


# A day said where a kind of workout would be ("workouts for tomorrow", "for next week").
_WHEN_ONLY = re.compile(
    r"(?:(?:for|on|this|next|the|coming)\s+)*(?:today|tonight|tomorrow|tmrw|weekend|week|month|"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?|\w+\s+(?:days|weeks))",
    re.I,
)
_GLUED = re.compile(r"\b(\d+(?:\.\d+)?)(?!(?:st|nd|rd|th)\b)([a-z]{1,7})\b")


def workout_titles(world: World) -> list[tuple[str, Any]]:
    """The titles of the workouts the athlete may see, as people write them, → the workout id."""

    def load() -> list[tuple[str, Any]]:
        user = getattr(world.ctx, "athlete", None)
        if user is None:
            return []
        pairs = []
        for pk, title in visible_workouts(user).values_list("pk", "title"):
            lower = title.lower().strip()
            plain = re.sub(r"[^\w\s]", "", lower)
            # as the matcher reads a message: a number parted from its unit ("track 400 s")
            parted = _GLUED.sub(r"\1 \2", plain)
            for form in {lower, lower.replace("-", " "), plain, parted}:
                if form.strip():
                    pairs.append((form, pk))
        return pairs

    return world.cached("library.titles", load)


def _minutes(m: re.Match[str]) -> int:
    n = m.group("n").lower()
    amount = 0.5 if n.startswith("half") else 1 if n in ("a", "an") else int(n)
    return int(amount * (60 if m.group("unit").lower().startswith("h") else 1))


def _search(slots: Slots) -> Parsed:
    where = re.sub(r"^(?:in|at|on)\s+(?:a|an|the|my)?\s*", "", str(slots.get("query_place", "")))
    if where and _WHEN_ONLY.fullmatch(where.strip(" ,.?!")):
        raise NotMeant  # "any running workouts for tomorrow": the plan's day, not a body part
    query = re.sub(r"\s+", " ", f"{slots.get('query', '')} {where}").strip(" ,.?!")
    lengths = [_minutes(m) for m in _LENGTH.finditer(query)]
    if "workout_minutes" in slots:
        lengths.append(int(slots.get("workout_minutes")))
    if re.match(r"(?:is|was|are|were|feels?|hurts?|seems?|happened|went)\b", query, re.I):
        raise NotMeant  # "something is wrong with my knee": no search
    if _WHEN_ONLY.fullmatch(query):
        raise NotMeant  # "any workouts for tomorrow": the plan's day, not a kind of workout
    query = re.sub(r"^(?:i|we|you)\s+(?:can|could)\s+do\s+", "", query, flags=re.I)
    query = _LENGTH.sub(" ", query)
    query = re.sub(r"\s+", " ", query).strip(" ,.?!")
    if lengths and min(lengths) <= SHORT_MINUTES and not re.search(r"\b(?:quick|short)\b", query):
        query = f"quick {query}".strip()
    query = re.sub(
        r"^(?:(?:on|for|in|during)\s+)?(?:a|an|some|any|good|nice|new|the|my)\s+",
        "",
        query,
        flags=re.I,
    )
    if not query:
        raise CommandError('Say what kind of workout, e.g. "find me a leg workout".')
    return Parsed("search_workout_library", {"query": query[:200]}, f'search for "{query}"')


def _last_search(world: World) -> list[Any]:
    """The results of the latest library search of the conversation, in the order shown."""
    user = getattr(world.ctx, "athlete", None)
    for name, arguments in world.recent_calls():
        if name == "search_workout_library" and user is not None:
            try:
                return search_workouts(
                    user=user, query=arguments.get("query", ""), limit=arguments.get("limit", 5)
                )
            except ValueError:
                return []
    return []


def _which(slots: Slots) -> tuple[int, str]:
    if "workout" in slots:
        pk = int(slots.get("workout"))
        title = next(
            (
                t
                for p, t in visible_workouts(slots.world.ctx.athlete).values_list("pk", "title")
                if p == pk
            ),
            slots.words.get("workout", ""),
        )
        return pk, title
    hits = _last_search(slots.world)
    index = int(slots.get("found", 0))
    if not hits:
        raise CommandError(
            'Which workout? Search first ("find me a leg workout") or say its title.'
        )
    if index >= len(hits):
        raise CommandError(f"The last search found {len(hits)} workout(s).")
    return hits[index].id, hits[index].title


def _same_week(date: datetime.date, today: datetime.date) -> bool:
    return date.isocalendar()[:2] == today.isocalendar()[:2]


def _schedule(slots: Slots) -> Parsed | Ask:
    pk, title = _which(slots)
    words = rest_of_message(slots)
    tail = str(slots.get("when_said", "")) or words
    today = slots.world.today
    lower = tail.lower()
    if _UNEVEN.search(lower) or len(set(_WEEKDAY.findall(lower))) > 1:
        # "every other day", "every monday and thursday": no daily or weekly repeat says it, and
        # one of them would schedule something else.
        raise CommandError(
            f"I can repeat {title} every day or every week on one weekday: say one, e.g. "
            f'"schedule {title} every monday for 4 weeks".'
        )
    date = date_said(tail, today)
    if date is None:
        return Ask(
            f"Which day should I put {title} on?",
            tuple(f"schedule {title} for {d}" for d in ("tomorrow", "saturday")),
        )
    if re.search(r"\bnext\s+(?!week)[a-z]+day\b", tail, re.I) and _same_week(date, today):
        # "next friday" on a Thursday: tomorrow, or the Friday of next week? Asked.
        later = date + datetime.timedelta(days=7)
        return Ask(
            f"Which {date:%A} should I put {title} on: {date:%-d %B} or {later:%-d %B}?",
            tuple(f"schedule {title} on {d.isoformat()}" for d in (date, later)),
        )
    arguments: dict[str, Any] = {"workout_id": pk, "date": date.isoformat()}
    description = f"schedule {title} on {date:%A %-d %B}"
    recurrence = (
        "daily"
        if re.search(r"\bevery\s*day\b|\bdaily\b|\beach day\b", lower)
        else "weekly"
        if re.search(r"\b(?:every|each)\s+(?:week|\w+day)\b|\bweekly\b|\bon\s+\w+days\b", lower)
        else None
    )
    count = count_said(lower, recurrence)
    if recurrence is None and count and re.search(r"\bweeks?\b", lower):
        recurrence = "weekly"
    if recurrence:
        end = _plan_end(slots.world)
        if count:
            arguments |= {"recurrence": recurrence, "count": count}
            description += f", {recurrence}, {count} times"
        elif (
            end is not None
            and end > date
            and (end - date).days // (7 if recurrence == "weekly" else 1) < MAX_OCCURRENCES
            and not _SAID_END.search(lower)
        ):
            # "every monday", no end said: the plan's dates, the most the calendar holds (a
            # longer plan than the tool's 52 occurrences is asked).
            arguments |= {"recurrence": recurrence, "until": end.isoformat()}
            description += f", {recurrence} until {end:%A %-d %B} (the end of your plan)"
        else:
            return Ask(
                f"How many times should I schedule {title} ({recurrence})?",
                tuple(
                    f"schedule {title} {recurrence} from {date.isoformat()} for {n} weeks"
                    for n in (4, 8)
                ),
            )
    return Parsed("add_workout_to_calendar", arguments, description)


_UNEVEN = re.compile(
    r"\bevery\s+(?:other|second|2nd|third|3rd|few|couple|\d+|two|three)\b|\bweekdays?\b"
    r"|\bweek\s*days\b|\b(?:twice|two times|three times|\d+\s*(?:x|times))\s+(?:a|per|each)\s+week\b",
)
_WEEKDAY = re.compile(r"\b(mon|tue|wed|thu|fri|sat|sun)[a-z]*day")
# An end said that is not a count ("until christmas", "till the end of the month"): asked.
_SAID_END = re.compile(r"\b(?:until|till|til|through|to the end|ending|for a month|for the)\b")


def _plan_end(world: World) -> datetime.date | None:
    """The last day of the athlete's program (its latest week's end), None without one."""
    program = getattr(world.ctx, "program", None)
    if program is None:
        return None
    return program.weeks.aggregate(end=Max("end_date"))["end"]


def _save(slots: Slots) -> Parsed | Ask:
    return workout_from_words(rest_of_message(slots))


def _navigate(slots: Slots) -> Parsed:
    page = slots.get("page")
    return Parsed("navigate_to_page", {"page": page}, f"open the {page} page")


LANGUAGE = Language(
    lists={"workout": workout_titles},
    values={"page": PAGES, "found": ORDINALS},
    ranges={"workout_minutes": (1, 180)},
    wildcards=("query", "query_place", "when_said", "workout_words"),
    rules={
        "find": "(find|search|look|look up|search for|look for|get|give|show|recommend|suggest|"
        "pull up|any|need|want)",
        "lib": "[(in|from) [the|my] [workout] library]",
        "some": "[a|an|some|any|good|a good|some good|a few|few|nice|new]",
        "target": "([the] {workout} [workout|session|routine|one]|{found})",
        "cal": "[(on|to|in|into) [my|the] (calendar|schedule|plan|program)]",
        "length": "[(for|under|in|of|less than|within|around|about|max|at most|lasting) "
        "{workout_minutes} (min|mins|minute|minutes)]",
        "asking": "[<please>] [can you|could you|would you|will you|can u|could u] [please|pls]",
        "day_said": "[(for|on|this|next|to)] ({day}|{when}|the day after tomorrow|tomorrow)",
        "pls": "[please|pls|plz|thanks|thx|thank you]",
    },
    intents=(
        Intent(
            "search_workout_library",
            (
                "[<please>] [can you|could you|please] <find> [me] [for] <some> {query} "
                + _NOUN
                + " <lib> <length> <pls>",
                "[(got|have you got|do you have|is there|<find>) [me]] [<some>] (something|"
                "anything) (for|with|to do|that works|that hits|targeting|focused on|good for) "
                "{query} <pls>",
                "(got|have you got|do you have|is there|are there|have we got) <some> {query} "
                + _NOUN
                + " <lib> <length> <pls>",
                "(show|give|find|get) me something {query} <pls>",
                # The kind, then what it is for ("any stretching routines for tight hips").
                "(got|have you got|do you have|is there|are there|have we got|<find>) [me] <some> "
                "{query} "
                + _NOUN
                + " (for|to help [with]|that (help|helps) [with]|good for|to fix|"
                "targeting|focused on) [my|the|a|an|some] {query_place} <lib> <length> <pls>",
                "[(got|have you got|do you have|<find>) [me]] (something|anything) {query} <pls>",
                "[(got|have you got|do you have|is there|are there|<find>) [me]] <some> {query} ["
                + _NOUN
                + "] (i|we) (can|could) do [{query_place}] <pls>",
                "(what|which) {query} " + _NOUN + " (are there|do you have|do i have|are in the "
                "library|can i do)",
                "(search|look through|check) [the|my] [workout] library for {query}",
                "[i'm|i am|im|i was|just] (looking for|after|searching for|hunting for|in the "
                "mood for|up for|keen on) <some> {query} " + _NOUN + " <lib>",
                "(i need|i want|i'd like|i would like|i fancy|give me) <some> {query} " + _NOUN,
                "[(got|have you got|do you have|is there|are there|have we got|<find>) [me]] <some> "
                + _NOUN
                + " (for|to train|to work|that (hit|hits|target|targets|work|works)|targeting|"
                "focused on|focusing on|good for) [my|the] {query} <lib> <length> <pls>",
                "(what's|whats|what is|what do you have|what have you got|what is there|what's "
                "there|whats there|is there anything|anything) (in|from) [the|my|your] [workout] "
                "library (for|on|with|to do with) [my|the] {query} <pls>",
                "(what's|whats|what is|what do you have|what have you got) (for|on) [my|the] "
                "{query} (in|from) [the|my|your] [workout] library <pls>",
            ),
            build=_search,
            examples=("find me a leg workout", "got any quick cardio workouts"),
        ),
        Intent(
            "add_workout_to_calendar",
            (
                "<asking> (schedule|put|add|plan|book|slot|pencil in|pop|stick|throw) [in] <target>"
                " [in] <cal> [for|on|from|starting] {when_said}",
                "<asking> (schedule|put|add|plan|book|pop|stick) <target> [in] <cal> <pls>",
                "<asking> (schedule|put|add|plan|book|slot|pencil in) [in] <target> <cal> "
                "<day_said> <pls>",
                "[i want to|i'd like to|let me|i'll|can i] do <target> {when_said}",
            ),
            build=_schedule,
            examples=(
                "put Leg Day Destroyer on my calendar for tomorrow",
                "schedule that one every week for 4 weeks starting tomorrow",
            ),
        ),
        Intent(
            "save_workout_to_library",
            (
                "(save|create|make|build|design|write) [me] [a|an|this|the] [new] {workout_words} "
                "(workout|session|routine) {query}",
                "(save|create|make|build|design|write) [me] [a|an|this|the] [new] (workout|session|"
                "routine) {query}",
            ),
            build=_save,
            examples=(
                "save a workout called Quick Legs: 3 sets of 15 goblet squats, 20 minutes, moderate",
            ),
        ),
        Intent(
            "navigate_to_page",
            (
                "[<please>] (open|go to|take me to|bring me to|navigate to|show me|show|jump to|"
                "switch to|get me to|i want to see|let me see) <the> {page} [page|view|screen|tab] <pls>",
                "(where is|where's|wheres|where are|how do i get to|how do i find|how do i open) "
                "<the> {page} [page|view|screen|tab]",
            ),
            build=_navigate,
            examples=("take me to my calendar", "open settings"),
        ),
    ),
)
