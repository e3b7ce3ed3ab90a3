"""Questions about training in everyday words (``training.tools.language``): the last run, a day's
training, runs of the last weeks, fitness and fatigue, the plan ahead, a comparison (of a span,
or of the latest N activities of a sport: "compare my last two runs"); sleep and recovery are
``say_sleep``'s. Each is the documented read (``training.tools.offline``), answered at once in
words (``training.tools.words``: the read's ``Outcome.spoken``), never JSON.

A weekday in a question about training done is the latest one (Friday, asked on a Tuesday, is
last Friday); "the last two weeks" ends today."""

from __future__ import annotations

import datetime

from coach.llm.offline.grammar import CommandError, Parsed
from coach.llm.offline.language import Ask, Intent, Slots

from ..models import Activity
from .args import MAX_COMPARE
from .said_dates import date_said, told
from .said_sessions import planned
from .words import noun

LEAD = "[<tr_lead>]"
SHOW = (
    "(show [me]|list|give me|get|pull up|display|what (are|were)|how (are|were)|let me see|"
    "can i see|can you show me|tell me|see)"
)
# "{count} days" → days; the unit's value is its length in days.
UNITS = [
    ("day", 1),
    ("days", 1),
    ("week", 7),
    ("weeks", 7),
    ("month", 30),
    ("months", 30),
    ("night", 1),
    ("nights", 1),
]
ACTIVITIES = [
    ("run", "RUNNING"),
    ("runs", "RUNNING"),
    ("running", "RUNNING"),
    ("jog", "RUNNING"),
    ("jogs", "RUNNING"),
    ("ride", "CYCLING"),
    ("rides", "CYCLING"),
    ("bike ride", "CYCLING"),
    ("bike rides", "CYCLING"),
    ("bike", "CYCLING"),
    ("cycling", "CYCLING"),
    ("cycle", "CYCLING"),
    ("swim", "SWIMMING"),
    ("swims", "SWIMMING"),
    ("swimming", "SWIMMING"),
    ("strength session", "STRENGTH"),
    ("strength sessions", "STRENGTH"),
    ("strength workout", "STRENGTH"),
    ("lift", "STRENGTH"),
    ("lifts", "STRENGTH"),
    ("lifting session", "STRENGTH"),
    ("gym session", "STRENGTH"),
    ("workout", "ANY"),
    ("workouts", "ANY"),
    ("activity", "ANY"),
    ("activities", "ANY"),
    ("session", "ANY"),
    ("sessions", "ANY"),
    ("training", "ANY"),
    ("exercise", "ANY"),
]
SPAN = (
    "(<the> (last|past|previous) {count:n} {training_unit:unit}"
    "|<the> (last|past|previous) {training_unit:unit}|{training_period:period})"
)


def _sport(slots: Slots) -> dict:
    sport = slots.get("sport")
    return {"activity_type": sport} if sport and sport != "ANY" else {}


def span_days(slots: Slots, default: int | None = None) -> int | None:
    if slots.get("period") is not None:
        return int(slots.get("period"))
    if slots.get("unit") is not None:
        return int(slots.get("n") or 1) * int(slots.get("unit"))
    return default


def _last(slots: Slots) -> Parsed:
    args = _sport(slots)
    return Parsed("get_last_activity", args, f"show your last {noun(args.get('activity_type'))}")


def _on_day(slots: Slots) -> Parsed | Ask:
    day = date_said(slots, "d", past=True)
    if isinstance(day, Ask):
        return day
    if day is None:
        raise CommandError('Say the day, e.g. "what did I do yesterday".')
    args = {"date": day.isoformat(), **_sport(slots)}
    return Parsed("get_activity_by_date", args, f"show your training on {told(day)}")


def _range(slots: Slots) -> Parsed:
    days = span_days(slots, 7) or 7
    if days > 366:
        raise CommandError("Activities are read at most a year (366 days) at a time.")
    today = slots.world.today
    start = today - datetime.timedelta(days=days)
    args = {"start_date": start.isoformat(), "end_date": today.isoformat(), **_sport(slots)}
    what = noun(args.get("activity_type")) if args.get("activity_type") else "activitie"
    return Parsed("get_activities_range", args, f"list your {what}s of the last {days} days")


def fitness_read(slots: Slots) -> Parsed:
    return Parsed("get_fitness_scores", {}, "show your fitness, fatigue and form")


def _plan(slots: Slots) -> Parsed | Ask:
    today = slots.world.today
    day = date_said(slots, "d")
    if isinstance(day, Ask):
        return day
    if day is not None:
        start = end = day
    elif slots.get("plan_week") is not None:
        which = str(slots.get("plan_week"))
        monday = slots.world.weekday(0, next_week=which in ("1", "next weekend"))
        start, end = monday, monday + datetime.timedelta(days=6)
        if "weekend" in which:
            start = monday + datetime.timedelta(days=5)
    else:
        days = span_days(slots, 14) or 14
        if days > 62:
            raise CommandError("The plan is read at most 62 days at a time.")
        start, end = today, today + datetime.timedelta(days=days - 1)
    return Parsed(
        "get_training_plan",
        {"start_date": start.isoformat(), "end_date": end.isoformat()},
        f"show your plan from {told(start)} to {told(end)}",
    )


def _plan_fit(slots: Slots) -> int:
    """How well the dated plan answers (``Intent.fit``): 1 when a session is dated in the days
    asked about, else 0."""
    built = _plan(slots)
    if isinstance(built, Ask):
        return 0
    start, end = (
        datetime.date.fromisoformat(built.arguments[k]) for k in ("start_date", "end_date")
    )
    return 1 if any(p.date and start <= p.date <= end for p in planned(slots.world)) else 0


def _compare(slots: Slots) -> Parsed:
    days = span_days(slots, 14) or 14
    if days > 366:
        raise CommandError("Activities are compared at most a year (366 days) at a time.")
    today = slots.world.today
    start = today - datetime.timedelta(days=days)
    return Parsed(
        "compare_activities",
        {"start_date": start.isoformat(), "end_date": today.isoformat()},
        f"compare your activities of the last {days} days",
    )


def _compare_latest(slots: Slots) -> Parsed:
    """The athlete's latest N activities of the sport said ("my last two runs", "my last run
    and the one before"), oldest first: the tool compares the others with the first."""
    n = int(slots.get("n") or 2)
    if not 2 <= n <= MAX_COMPARE:
        raise CommandError(f"Comparing takes 2 to {MAX_COMPARE} activities, not {n}.")
    sport = _sport(slots).get("activity_type")
    rows = Activity.objects.filter(athlete=slots.world.ctx.athlete)
    if sport:
        rows = rows.filter(sport=sport)
    ids = list(rows.order_by("-start", "-pk").values_list("pk", flat=True)[:n])
    what = noun(sport).replace("activity", "activitie")
    if len(ids) < 2:
        recorded = f"1 {noun(sport)}" if ids else f"no {what}s"
        raise CommandError(f"You have {recorded} recorded; comparing needs 2.")
    return Parsed(
        "compare_activities", {"activity_ids": ids[::-1]}, f"compare your last {len(ids)} {what}s"
    )


ACTIVITY = "{training_activity:sport}"
LAST = "(last|latest|most recent|previous|recent)"
# The activity before the last one, said after it: "my last run and the one before".
BEFORE = (
    "(<the> (one|{training_activity}|session|workout) before [it|that|this]|<the> previous"
    " (one|{training_activity}|session|workout)|<the> one before last)"
)
SCORES = "(fitness|form|fatigue|training load|freshness|ctl|atl|tsb)"
NEXT = "<the> (next|coming|upcoming) {count:n} {training_unit:unit}"
INTENTS = (
    Intent(
        "last_activity",
        (
            f"{LEAD} (show [me]|how was|how did|analy(s|z)e|what was|tell me about|review|break down"
            f"|look at|check|give me|summari(s|z)e|what about|how about|describe|see|pull up)"
            f" <the> {LAST} {ACTIVITY} [like|go|went|look|looked]",
            f"<the> {LAST} {ACTIVITY}",
            f"how did <the> {LAST} {ACTIVITY} go",
            f"(how long|how far|how fast|how hard|how good) was <the> {LAST} {ACTIVITY}",
            "what did i do last time",
            "what was <the> last thing i did",
        ),
        build=_last,
        examples=("how was my last run?", "analyze my last ride"),
    ),
    Intent(
        "activity_on_day",
        (
            "what did i do <tr_day> [for training|for exercise]",
            "(did i (train|work out|run|ride|swim|do anything)) <tr_day>",
            f"{LEAD} {SHOW} <the> {ACTIVITY} [from] <tr_day>",
            f"(how was|how did|show [me]|analy(s|z)e) [my] {{training_past:d_word}} {ACTIVITY} [go]",
            f"(how (was|did)|tell me about) <the> {ACTIVITY} [go] <tr_day>",
        ),
        build=_on_day,
        examples=("what did I do yesterday?", "show my run from Saturday"),
    ),
    Intent(
        "activities_range",
        (
            f"{LEAD} {SHOW} <the> {ACTIVITY} (from|of|in|over|for|during) {SPAN}",
            f"{LEAD} {SHOW} <the> {ACTIVITY} {SPAN}",
            f"what {ACTIVITY} did i do (in|over|during) {SPAN}",
            f"how (much|many) {ACTIVITY} did i do [(in|over|during)] {SPAN}",
            f"{LEAD} {SHOW} <the> {{training_period_s:period}} {ACTIVITY}",
            f"[{SHOW}] what (did i do|have i done|i did|i've done) [(in|over|during)] {SPAN}",
            f"how (has|is|was) <the> training (been|going|gone|looking) [{SPAN}]",
            "how (far|much|long|many (km|kilometers|kilometres|miles|hours)) (did i|have i)"
            f" {{training_verb:sport}} [(in|over|during)] {SPAN}",
        ),
        build=_range,
        examples=("show my runs from the last 30 days",),
    ),
    Intent(
        "fitness",
        (
            f"{LEAD} (how's|how is|hows|what's|whats|what is|what are|show [me]|check|tell me) <the>"
            f" [current] {SCORES} [[and] [my] {SCORES}] [[and] [my] {SCORES}] [level|score|scores]"
            " [looking] [like] [right now|today|at the moment|now|lately|these days]",
            "am i (carrying [a lot of] fatigue|fatigued|tired|overtrained|overreaching|fresh|rested"
            "|recovered|in shape|getting fitter|overtraining|overreaching|overdoing it|doing too much"
            "|training too much) [right now|today|at the moment|now|lately]",
            "how (fit|tired|fresh|fatigued) am i [right now|today|at the moment|now|lately]",
            f"(is|are) <the> {SCORES} (good|ok|okay|bad|low|high|alright|fine) [right now|today|now]",
            "am i (recovered|rested|fresh|ready) [enough] [(to|for) {training_why:why}]",
            "(should|can|could) i (train|go|push) hard [today|tomorrow|this week]",
            f"{LEAD} (show [me]|check) <the> fitness (chart|scores|numbers)",
        ),
        build=fitness_read,
        examples=("how's my fitness?", "am I carrying a lot of fatigue?"),
    ),
    Intent(
        "training_plan",
        (
            f"(what's|whats|what is|show [me]|what does|how does|tell me) <the> (plan|schedule"
            f"|training plan|program|training) [look like] [(for|over|in)] ({NEXT}|<the> next"
            f" {{training_unit:unit}}|{{training_plan_week:plan_week}}) [look like]",
            # "what's on Friday" is the program family's (the session with its exercises).
            "what('s| is) (planned|scheduled|coming up|up) [for] <tr_day>",
            "what('s| is) on <the> (plan|schedule|calendar) [for] (<tr_day>|"
            f"{{training_plan_week:plan_week}}|{NEXT})",
            f"{LEAD} {SHOW} <the> next {{count:n}} {{training_unit:unit}} of <the> (plan|schedule)",
            f"[{LEAD} (give me|show me)] [an] (overview|preview) of ({{training_plan_week:plan_week}}"
            f"|{NEXT})",
            f"what (do i have|have i got|am i doing) [planned|scheduled|on|coming up] [for]"
            f" (<tr_day>|{{training_plan_week:plan_week}}|{NEXT})",
            f"what('s| is) (on|planned|scheduled|coming up) [for] ({{training_plan_week:plan_week}}"
            f"|{NEXT})",
            f"(what does|how does) ({{training_plan_week:plan_week}}|{NEXT}) look [like]",
        ),
        build=_plan,
        fit=_plan_fit,
        examples=("what's my plan for the next two weeks?", "what's planned for Friday?"),
    ),
    Intent(
        "compare_activities",
        (
            f"{LEAD} compare <the> {ACTIVITY} (from|of|in|over|for|during) {SPAN}",
            f"{LEAD} compare <the> {ACTIVITY} {SPAN}",
        ),
        build=_compare,
        examples=("compare my training over the last two weeks",),
    ),
    Intent(
        "compare_latest",
        (
            f"{LEAD} compare <the> ({LAST} {{count:n}}|{{count:n}} {LAST}|{LAST} {{training_few:n}})"
            f" {ACTIVITY}",
            f"{LEAD} compare <the> {LAST} {ACTIVITY} (to|with|against|and) {BEFORE}",
            f"how (do|did) <the> ({LAST} {{count:n}}|{{count:n}} {LAST}|{LAST} {{training_few:n}})"
            f" {ACTIVITY} compare [to each other|with each other]",
            f"how (does|did) <the> {LAST} {ACTIVITY} compare (to|with|against) {BEFORE}",
        ),
        build=_compare_latest,
        examples=("compare my last two runs",),
    ),
)


def _past_possessives() -> list[tuple[str, str]]:
    pairs = []
    for word, when in (
        ("yesterday", "yesterday"),
        ("last night", "yesterday"),
        ("today", "today"),
        ("this morning", "today"),
        ("tonight", "today"),
    ):
        pairs += [(f"{word}'s", f"when:{when}"), (f"{word}s", f"when:{when}")]
    return pairs


VALUES = {
    "training_unit": UNITS,
    "training_few": [("couple", 2), ("couple of", 2), ("two", 2), ("few", 3), ("three", 3)],
    "training_activity": ACTIVITIES,
    "training_period": [
        ("this week", 7),
        ("this past week", 7),
        ("the past week", 7),
        ("last week", 7),
        ("the last week", 7),
        ("this month", 30),
        ("the past month", 30),
        ("last month", 30),
        ("the last month", 30),
        ("lately", 7),
        ("recently", 14),
        ("the last fortnight", 14),
        ("the past fortnight", 14),
    ],
    "training_plan_week": [
        ("this week", "0"),
        ("next week", "1"),
        ("the week", "0"),
        ("this weekend", "weekend"),
        ("the weekend", "weekend"),
        ("next weekend", "next weekend"),
    ],
    "training_period_s": [
        ("this week's", 7),
        ("this weeks", 7),
        ("last week's", 7),
        ("this month's", 30),
        ("last month's", 30),
        ("today's", 1),
        ("recent", 14),
    ],
    "training_past": _past_possessives(),
    "training_verb": [
        ("run", "RUNNING"),
        ("ran", "RUNNING"),
        ("been running", "RUNNING"),
        ("jog", "RUNNING"),
        ("ride", "CYCLING"),
        ("rode", "CYCLING"),
        ("cycle", "CYCLING"),
        ("cycled", "CYCLING"),
        ("bike", "CYCLING"),
        ("biked", "CYCLING"),
        ("been riding", "CYCLING"),
        ("swim", "SWIMMING"),
        ("swam", "SWIMMING"),
        ("been swimming", "SWIMMING"),
        ("train", "ANY"),
        ("trained", "ANY"),
        ("been training", "ANY"),
        ("work out", "ANY"),
        ("worked out", "ANY"),
    ],
}
