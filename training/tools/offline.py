"""The offline coach's training commands: reads of activities, sleep, fitness and the plan
(answered at once), and the schedule writes (previewed, applied on the athlete's click).

Sessions are ``W.S`` (``2.3`` is week 2, session 3, the tools' ``week-2-session-3``); exercises
``W.S.E``; dates ``YYYY-MM-DD``. See ``OFFLINE_COMMANDS.md`` for the list people read.
"""

from __future__ import annotations

import re

from coach.llm.offline.families import Commands
from coach.llm.offline.grammar import CommandError, Parsed, normalise_refs

from ..plan_adjust import MAX_DAYS, MIN_DAYS

SPORTS = {
    "run": "RUNNING",
    "running": "RUNNING",
    "ride": "CYCLING",
    "bike": "CYCLING",
    "cycling": "CYCLING",
    "swim": "SWIMMING",
    "swimming": "SWIMMING",
    "strength": "STRENGTH",
    "lift": "STRENGTH",
    "workout": None,
    "activity": None,
    "activities": None,
}
INTENSITIES = ("easy", "tempo", "threshold", "intervals", "vo2max")
DATE = r"(\d{4}-\d{2}-\d{2})"
SPORT = r"(run|running|ride|bike|cycling|swim|swimming|strength|lift|workout|activity|activities)"
SES = r"session\s+(\d+)\.(\d+)"
Q = r"\s*\??"

HELP = [
    ("Your last activity (or run, ride, swim, strength)", "show my last run"),
    ("Activities on a day or between two days", "activities from 2026-11-01 to 2026-11-30"),
    ("Your plan by date (with session numbers)", "plan from 2026-11-23 to 2026-12-06"),
    ("Sleep of the last N nights", "sleep 7"),
    ("Fitness, fatigue and form (optionally on a date)", "fitness"),
    ("Compare activities (ids from the lists)", "compare activities 12 15"),
    ("Move a session (swap, replace or push)", "move session 2.3 to 2026-12-05 swap"),
    ("Skip a session with a reason", "skip session 2.3 because sick"),
    ("Mark a session done (rating 1-5)", "done session 2.3 rating 4"),
    ("Add a one-off workout", "add run on 2026-12-05 40 min tempo named River Tempo"),
    ("Log sets of an exercise", "log exercise 2.3.1 3x8 @ 100 kg rpe 8"),
    ("Restart the plan today after missed sessions", "realign"),
    ("Not feeling 100%: lighter next N days (3-14)", "lighter 5 days"),
]


def _ref(week: str, session: str) -> str:
    return f"week-{int(week)}-session-{int(session)}"


def _sport(word: str | None) -> str | None:
    return SPORTS.get((word or "").lower())


def _with_sport(args: dict, word: str | None) -> dict:
    sport = _sport(word)
    return {**args, "activity_type": sport} if sport else args


def parse_training_command(text: str) -> Parsed | None:
    """One training command → one tool call; ``None`` when ``text`` isn't one."""
    return _read(text) or _write(text)


def _read(text: str) -> Parsed | None:
    flags = re.IGNORECASE
    if m := re.fullmatch(
        rf"(?:show\s+|how\s+was\s+)?(?:my\s+)?(?:last|latest)\s+{SPORT}{Q}", text, flags
    ):
        word = m.group(1).lower()
        return Parsed("get_last_activity", _with_sport({}, word), f"show your last {word}")
    if m := re.fullmatch(rf"(?:show\s+)?(?:my\s+)?{SPORT}s?\s+(?:on|of)\s+{DATE}{Q}", text, flags):
        return Parsed(
            "get_activity_by_date",
            _with_sport({"date": m.group(2)}, m.group(1)),
            f"show your {m.group(1).lower()} on {m.group(2)}",
        )
    if m := re.fullmatch(
        rf"(?:show\s+)?(?:my\s+)?{SPORT}s?\s+(?:from|between)\s+{DATE}\s+(?:to|and)\s+{DATE}{Q}",
        text,
        flags,
    ):
        return Parsed(
            "get_activities_range",
            _with_sport({"start_date": m.group(2), "end_date": m.group(3)}, m.group(1)),
            f"list activities from {m.group(2)} to {m.group(3)}",
        )
    if m := re.fullmatch(
        rf"(?:show\s+)?(?:my\s+)?(?:training\s+)?plan(?:\s+from\s+{DATE})?(?:\s+to\s+{DATE})?{Q}",
        text,
        flags,
    ):
        args = {k: v for k, v in (("start_date", m.group(1)), ("end_date", m.group(2))) if v}
        return Parsed("get_training_plan", args, "show your plan")
    if m := re.fullmatch(
        rf"(?:show\s+)?(?:my\s+)?sleep(?:\s+(\d+))?(?:\s+(?:days|nights))?{Q}", text, flags
    ):
        days = int(m.group(1) or 7)
        if not 1 <= days <= 90:
            raise CommandError('Sleep is read for 1 to 90 nights, e.g. "sleep 7".')
        return Parsed("get_sleep_data", {"days": days}, f"show your sleep of {days} nights")
    if m := re.fullmatch(
        rf"(?:show\s+)?(?:my\s+)?(?:fitness|form|fatigue)(?:\s+on\s+{DATE})?{Q}", text, flags
    ):
        args = {"date": m.group(1)} if m.group(1) else {}
        return Parsed("get_fitness_scores", args, "show your fitness, fatigue and form")
    if m := re.fullmatch(rf"compare\s+(?:activities\s+)?from\s+{DATE}\s+to\s+{DATE}", text, flags):
        return Parsed(
            "compare_activities",
            {"start_date": m.group(1), "end_date": m.group(2)},
            f"compare activities from {m.group(1)} to {m.group(2)}",
        )
    if m := re.fullmatch(r"compare\s+(?:activities\s+)?(\d+(?:[\s,]+\d+)+)", text, flags):
        ids = [int(i) for i in re.split(r"[\s,]+", m.group(1))]
        return Parsed("compare_activities", {"activity_ids": ids}, "compare those activities")
    return None


def _write(text: str) -> Parsed | None:
    flags = re.IGNORECASE
    if re.fullmatch(r"realign(?:\s+my)?(?:\s+(?:plan|program))?[.!]?", text, flags):
        return Parsed("realign_plan", {}, "realign your plan to start from today")
    if m := re.fullmatch(
        r"(?:make\s+(?:the\s+)?)?(?:lighter|easier)(?:\s+(?:the\s+)?next)?\s+(\d+)\s+days?"
        r"|not\s+feeling\s+100\s*%?(?:\s*[,:]?\s*(?:lighter\s+)?(?:next\s+)?(\d+)\s+days?)?",
        text,
        flags,
    ):
        days = int(m.group(1) or m.group(2) or 0)
        if not MIN_DAYS <= days <= MAX_DAYS:
            raise CommandError(
                f'A lighter stretch lasts {MIN_DAYS} to {MAX_DAYS} days, e.g. "lighter 5 days".'
            )
        return Parsed("lighten_plan", {"days": days}, f"make the next {days} days lighter")
    if m := re.fullmatch(
        rf"(?:move|reschedule)\s+{SES}\s+to\s+{DATE}(?:\s+(?:by\s+)?(swap|replace|push)(?:ing)?)?",
        text,
        flags,
    ):
        strategy = (m.group(4) or "swap").lower()
        return Parsed(
            "reschedule_workout",
            {
                "workout_id": _ref(m.group(1), m.group(2)),
                "new_date": m.group(3),
                "strategy": strategy,
            },
            f"move session {m.group(1)}.{m.group(2)} to {m.group(3)} ({strategy})",
        )
    if m := re.fullmatch(rf"skip\s+{SES}(?:\s+(?:because|reason:?|:)\s*(.+))?", text, flags):
        reason = (m.group(3) or "").strip()
        if not reason:
            raise CommandError('Say why, e.g. "skip session 2.3 because sick".')
        return Parsed(
            "skip_workout",
            {"workout_id": _ref(m.group(1), m.group(2)), "reason": reason},
            f"skip session {m.group(1)}.{m.group(2)} ({reason})",
        )
    if m := re.fullmatch(
        rf"(?:done|complete|completed|finished|mark)\s+{SES}(?:\s+(?:as\s+)?(?:done|complete))?"
        rf"(?:\s+on\s+{DATE})?(?:\s+rating\s+(\d+))?(?:\s+notes?:?\s+(.+))?",
        text,
        flags,
    ):
        args: dict = {"workout_id": _ref(m.group(1), m.group(2))}
        if m.group(3):
            args["date"] = m.group(3)
        if m.group(4):
            args["rating"] = int(m.group(4))
        if m.group(5):
            args["notes"] = m.group(5).strip()
        return Parsed("mark_workout_complete", args, f"mark session {m.group(1)}.{m.group(2)} done")
    if m := re.fullmatch(
        rf"add\s+{SPORT}\s+on\s+{DATE}(?:\s+(\d+)\s*(?:min|mins|minutes))?"
        rf"(?:\s+({'|'.join(INTENSITIES)}))?(?:\s+(?:named|called)\s+(.+))?",
        text,
        flags,
    ):
        word, intensity = m.group(1).lower(), (m.group(4) or "").lower() or None
        sport = _sport(word) or "OTHER"
        name = (m.group(5) or "").strip().strip('"') or " ".join(
            p for p in ((intensity or "").capitalize(), word.capitalize()) if p
        )
        args = {"date": m.group(2), "sport": sport, "name": name, "description": ""}
        if m.group(3):
            args["duration"] = int(m.group(3))
        if intensity:
            args["intensity"] = intensity
        return Parsed("create_custom_workout", args, f"add {name} on {m.group(2)}")
    if m := re.fullmatch(
        r"log\s+exercise\s+(\d+)\.(\d+)\.(\d+)\s+(?:set\s+(\d+)\s+(\d+)\s*reps?|(\d+)\s*[x×]\s*(\d+))"
        r"(?:\s*@\s*(.+?))?(?:\s+rpe\s+(\d+(?:\.\d)?))?",
        text,
        flags,
    ):
        week, session, exercise = (int(g) for g in m.group(1, 2, 3))
        if m.group(4):
            numbers, reps = [int(m.group(4))], int(m.group(5))
        else:
            numbers, reps = list(range(1, int(m.group(6)) + 1)), int(m.group(7))
        if len(numbers) > 30:
            raise CommandError("Log at most 30 sets at once.")
        entry = {"exercise": exercise, "reps": reps}
        if m.group(8):
            entry["load"] = m.group(8).strip()
        if m.group(9):
            entry["rpe"] = float(m.group(9))
        return Parsed(
            "log_sets",
            {"workout_id": _ref(week, session), "sets": [{**entry, "set": n} for n in numbers]},
            f"log {len(numbers)} set(s) of exercise {week}.{session}.{exercise}",
        )
    return None


def _parse(command: str) -> Parsed | None:
    return parse_training_command(normalise_refs(command.strip()))


COMMANDS = Commands(
    parse=_parse,
    help=HELP,
    heading="Training (sessions are week.session, e.g. 2.3):",
    first=True,
    verbs=("log", "compare", "done", "reschedule"),
)
