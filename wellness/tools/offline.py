"""The offline coach's wellness commands: statements of what the athlete took or how they feel
(logged at once when the guardrails pass, with Undo), reminders and care records (previewed,
applied on the athlete's click), and reads of the log.

    I took my creatine this morning          log_medication {creatine, supplement, morning}
    I had 400 mg ibuprofen at 08:30          log_medication {ibuprofen, medication, 400 mg, 08:30}
    mood good / I feel great                 log_mood (great, good, okay, poor, crisis)
    readiness sleep 4 soreness 2 stress 3    log_readiness (each 1-5)
    remind me to take creatine at 08:00 [every day | weekdays | on mon, wed, fri]
                                             create_reminder
    I went to physio on 2026-11-20 at 10:00: knee rehab
                                             create_care_log (visit, injury, physio)
    wellness [7] / my reminders              get_wellness_logs / list_reminders

A medicine is a supplement when it is one of ``SUPPLEMENTS`` (creatine, protein, vitamins ...),
else a medication; nothing else is guessed (no dose or time the athlete didn't say).
"""

from __future__ import annotations

import re

from coach.llm.offline.families import Commands
from coach.llm.offline.grammar import Parsed

SUPPLEMENTS = (
    "creatine",
    "protein",
    "whey",
    "casein",
    "caffeine",
    "beta-alanine",
    "electrolytes",
    "fish oil",
    "omega-3",
    "vitamin",
    "multivitamin",
    "magnesium",
    "zinc",
    "iron",
    "calcium",
    "collagen",
    "bcaa",
    "ashwagandha",
    "melatonin",
    "beetroot",
    "probiotic",
)
HELP = [
    ("Log what you took (logged at once, with Undo)", "I took my creatine this morning"),
    (
        "Log your mood (great, good, okay, poor; or a number: out of 5, 1-2 poor, 3 okay, 4 good, "
        "5 great; out of 10, 1-4 poor, 5-6 okay, 7-8 good, 9-10 great)",
        "mood good",
    ),
    ("Log readiness (each 1-5)", "readiness sleep 4 soreness 2 stress 3"),
    ("Create a reminder", "remind me to take creatine at 08:00 every day"),
    (
        "Record a visit, injury or physio session",
        "I went to physio on 2026-11-20 at 10:00: knee rehab",
    ),
    ("Your wellness log of the last N days", "wellness 7"),
]
_DOSE = r"(?P<dose>\d+(?:\.\d+)?\s*(?:mg|mcg|g|ml|iu|tablets?|capsules?|pills?|scoops?|drops?))"
_PART = r"(?:this|in\s+the)\s+(?P<part>morning|afternoon|evening)|(?P<night>tonight|last\s+night)"
_DAYS = {"mon": 1, "tue": 2, "wed": 3, "thu": 4, "fri": 5, "sat": 6, "sun": 7}
F = re.IGNORECASE


def parse_wellness_command(text: str) -> Parsed | None:
    return _medication(text) or _mood(text) or _other(text)


def _medication(text: str) -> Parsed | None:
    m = re.fullmatch(
        r"(?:i\s+)?(?:just\s+|'ve\s+|have\s+|already\s+)*(?P<verb>took|taken|had)\s+"
        rf"(?:{_DOSE}\s+(?:of\s+)?)?(?P<det>my|a|an|some|the)?\s*(?P<name>[a-z][a-z0-9\- ]*?)"
        rf"(?:\s+{_DOSE.replace('dose', 'dose2')})?"
        rf"(?:\s+(?:{_PART})|\s+at\s+(?P<time>\d{{1,2}}:\d{{2}}))?\s*[.!]?",
        text.strip(),
        F,
    )
    if m is None:
        return None
    name = m.group("name").strip()
    if re.search(r"\b(?:at|around|about)\s+\d|\d\s*(?:am|pm)\b", name, F):
        return None  # a time the command doesn't read ("at 7am"): the everyday reading has it
    if re.search(r"\s(?:and|plus)\s", name, F):
        return None  # two names ("vitamin d and fish oil"): the everyday reading logs each
    kind = "supplement" if any(s in name.lower() for s in SUPPLEMENTS) else "medication"
    dose = m.group("dose") or m.group("dose2")
    if m.group("verb").lower() == "had" and not (
        dose or kind == "supplement" or m.group("det") == "my"
    ):
        return None  # "I had a headache" states a symptom, not a dose
    args: dict = {"medication_name": name, "kind": kind}
    if dose:
        args["dose"] = re.sub(r"\s+", " ", dose)
    when = ""
    if m.group("time"):
        hours, minutes = m.group("time").split(":")
        args["time"] = f"{int(hours):02d}:{minutes}"
        when = f" at {args['time']}"
    elif m.group("part") or m.group("night"):
        args["part_of_day"] = (m.group("part") or "night").lower()
        when = f" ({args['part_of_day']})"
    return Parsed("log_medication", args, f"log {kind} {name}{when}")


def _mood(text: str) -> Parsed | None:
    m = re.fullmatch(
        r"(?:mood\s*:?\s*|i\s+feel\s+|i'm\s+feeling\s+|feeling\s+|i\s+am\s+feeling\s+)"
        r"(?P<mood>great|good|okay|ok|poor|crisis)(?:\s+today)?\s*[.!]?",
        text.strip(),
        F,
    )
    if m is None:
        return None
    mood = m.group("mood").lower().replace("ok", "okay").replace("okayay", "okay")
    return Parsed("log_mood", {"mood": mood}, f"log your mood: {mood}")


def _days(raw: str | None) -> list[int]:
    if not raw or re.fullmatch(r"every\s*day|daily", raw.strip(), F):
        return list(range(1, 8))
    if re.fullmatch(r"weekdays", raw.strip(), F):
        return list(range(1, 6))
    days = [_DAYS.get(w[:3].lower()) for w in re.findall(r"[a-z]+", raw, F)]
    return sorted({d for d in days if d})


def _other(text: str) -> Parsed | None:
    text = text.strip()
    if m := re.fullmatch(r"readiness\s+sleep\s+(\d)\s+soreness\s+(\d)\s+stress\s+(\d)", text, F):
        sleep, sore, stress = (int(g) for g in m.groups())
        return Parsed(
            "log_readiness",
            {"sleep_quality": sleep, "soreness": sore, "stress": stress},
            f"log readiness: sleep {sleep}/5, soreness {sore}/5, stress {stress}/5",
        )
    if m := re.fullmatch(
        r"remind\s+me\s+to\s+(?P<title>.+?)\s+at\s+(?P<time>\d{1,2}:\d{2})"
        r"(?:\s+(?:on\s+)?(?P<days>every\s*day|daily|weekdays|[a-z, ]+))?",
        text,
        F,
    ):
        hours, minutes = m.group("time").split(":")
        time = f"{int(hours):02d}:{minutes}"
        title = m.group("title").strip()
        title = title[0].upper() + title[1:]
        days = _days(m.group("days"))
        return Parsed(
            "create_reminder",
            {"title": title, "time": time, "days": days},
            f"remind you to {m.group('title').strip()} at {time}",
        )
    if m := re.fullmatch(
        r"(?:i\s+)?(?:went\s+to|had|saw)\s+(?:a\s+|an\s+|my\s+|the\s+)?"
        r"(?P<what>physio|doctor|hospital|clinic|visit|injury)\w*\s+on\s+(?P<date>\d{4}-\d{2}-\d{2})"
        r"\s+at\s+(?P<time>\d{1,2}:\d{2})\s*:?\s*(?P<title>.*)",
        text,
        F,
    ):
        what = m.group("what").lower()
        log_type = what if what in ("physio", "injury") else "visit"
        hours, minutes = m.group("time").split(":")
        when = f"{m.group('date')}T{int(hours):02d}:{minutes}"
        title = m.group("title").strip() or what.capitalize()
        return Parsed(
            "create_care_log",
            {"log_type": log_type, "title": title, "occurred_at": when},
            f"record a {log_type}: {title} on {when.replace('T', ' at ')}",
        )
    if m := re.fullmatch(r"(?:show\s+)?(?:my\s+)?wellness(?:\s+log)?(?:\s+(\d+))?\??", text, F):
        days = int(m.group(1) or 7)
        return Parsed("get_wellness_logs", {"days": days}, f"show your wellness log ({days} days)")
    if re.fullmatch(r"(?:show\s+|list\s+)?(?:my\s+)?reminders\??", text, F):
        return Parsed("list_reminders", {}, "list your reminders")
    return None


COMMANDS = Commands(parse=parse_wellness_command, help=HELP, heading="Wellness:", first=True)
