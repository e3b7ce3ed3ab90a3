"""What an athlete's wellness sentence says, read by rules a person can check: a clock time
("9am", "7:30 pm", "at 8"), weekdays ("every monday and thursday", "weekdays"), a dose
("400 mg", "5g", "two tablets"), a part of the day, a day ("yesterday", "on Monday"), and
readiness words ("slept badly", "really sore", "work is stressful") on the log's 1-5 scales.
Nothing is guessed: what isn't said is None."""

from __future__ import annotations

import datetime
import re

from coach import vocabulary

F = re.IGNORECASE
NUMBER_WORDS = vocabulary.NUMBER_WORDS
_HOUR = r"(?:\d{1,2}|" + "|".join(NUMBER_WORDS) + ")"
TIME = re.compile(
    rf"\b(?:at|@|for|by)?\s*(?P<hour>{_HOUR})(?::(?P<minute>[0-5]\d))?\s*"
    r"(?P<half>a\.?m\.?|p\.?m\.?|o'?clock|in the morning|in the evening|at night|tonight)?(?!\w)",
    F,
)
NOON = re.compile(r"\b(?:at\s+)?(noon|midday|midnight)\b", F)
_ABBREVIATIONS = {"mon": 1, "tue": 2, "wed": 3, "thu": 4, "fri": 5, "sat": 6, "sun": 7}
DAY_NAMES = tuple(name.lower() for name in vocabulary.DAY_NAMES)
_DAY = r"(?:mon|tue|tues|wed|weds|thu|thur|thurs|fri|sat|sun)(?:day)?s?"
DAYS = re.compile(
    rf"\b(?:every\s*day|daily|each\s+day|weekdays|week\s*days|weekends?|"
    rf"(?:on\s+|every\s+|each\s+)?{_DAY}(?:\s*(?:,|and|&|\+)\s*{_DAY})*)\b",
    F,
)
DOSE = re.compile(
    r"(?P<amount>\d+(?:\.\d+)?|a|an|one|two|three|four|five|half\s+a)\s*"
    r"(?P<unit>mg|mcg|µg|g|grams?|ml|iu|tablets?|tabs?|capsules?|caps|pills?|scoops?|drops?|"
    r"puffs?|units?|shots?)\b",
    F,
)
PART = re.compile(
    r"\b(?:this|in\s+the|before|after|with|at|during|over)\s+(?P<part>morning|afternoon|evening|"
    r"breakfast|"
    r"lunch|dinner|supper|bed)\b|\b(?P<night>tonight|last\s+night|at\s+night|at\s+bedtime)\b",
    F,
)
_PARTS = {
    "breakfast": "morning",
    "lunch": "afternoon",
    "dinner": "evening",
    "supper": "evening",
    "bed": "night",
}


def clock(text: str) -> str | None:
    """The clock time ``text`` names as "HH:MM" (24 h): "9am" 09:00, "7pm" 19:00, "at 8"
    08:00 (a bare hour is read on the 24-hour clock), "noon" 12:00; None when none is said."""
    if m := NOON.search(text):
        return "00:00" if m.group(1).lower() == "midnight" else "12:00"
    for m in TIME.finditer(text):
        said = m.group(0).strip().lower()
        bare = not (m.group("minute") or m.group("half"))
        if bare and not said.startswith(("at", "@", "for", "by")):
            continue  # "2 tablets", "5g": a number, not a time
        raw = m.group("hour").lower()
        hour = NUMBER_WORDS.get(raw, int(raw) if raw.isdigit() else -1)
        minute = int(m.group("minute") or 0)
        half = (m.group("half") or "").lower().replace(".", "")
        if half.startswith(("p", "in the evening", "at night", "tonight")) and 1 <= hour <= 11:
            hour += 12
        elif half.startswith(("a", "in the morning")) and hour == 12:
            hour = 0
        if 0 <= hour <= 23:
            return f"{hour:02d}:{minute:02d}"
    return None


# The clock a reminder takes when only the part of the day is said ("remind me to take my
# magnesium at night"): shown on the card before anything is created, so the athlete sees it.
REMINDER_PARTS = re.compile(
    r"\b(?:(?:in\s+the|this|every|each)\s+(?P<part>morning|afternoon|evening)s?"
    r"|(?P<night>at\s+night|tonight|every\s+night|each\s+night|nightly|at\s+bedtime|"
    r"before\s+(?:bed|bedtime|sleep|sleeping)))\b",
    F,
)
_PART_CLOCKS = {"morning": "08:00", "afternoon": "14:00", "evening": "19:00", "night": "21:00"}


# A bare hour said with a later part of the day is that part's: "every night at 10" is 22:00,
# "evenings at 7" 19:00 (the hours each part may take before it is read as the morning's).
_AFTER_NOON = {"afternoon": range(1, 7), "evening": range(1, 12), "night": range(5, 12)}
_HALF_SAID = re.compile(r"\d\s*(?:a\.?m|p\.?m)\b", F)


def reminder_clock(text: str) -> str | None:
    """The time of a reminder: the clock ``text`` names (a bare hour read in the part of the day
    said with it), else the usual hour of the part of the day it names (morning 08:00, afternoon
    14:00, evening 19:00, night 21:00), else None."""
    m = REMINDER_PARTS.search(text)
    part = ("night" if m.group("night") else m.group("part").lower()) if m else None
    if (time := clock(text)) is not None:
        hour = int(time[:2])
        if part in _AFTER_NOON and hour in _AFTER_NOON[part] and not _HALF_SAID.search(text):
            return f"{hour + 12:02d}{time[2:]}"
        return time
    return _PART_CLOCKS[part] if part else None


def weekdays(text: str) -> list[int] | None:
    """ISO weekdays ``text`` names (Monday 1), or None when it names none."""
    found: set[int] = set()
    for m in DAYS.finditer(text):
        said = m.group(0).lower()
        if re.search(r"every\s*day|daily|each\s+day", said):
            return list(range(1, 8))
        if re.search(r"week\s*days", said):
            found.update(range(1, 6))
        elif "weekend" in said:
            found.update((6, 7))
        for word in re.findall(r"[a-z]+", said):
            if word[:3] in _ABBREVIATIONS and word not in ("on", "and", "every", "each"):
                found.add(_ABBREVIATIONS[word[:3]])
    return sorted(found) or None


def dose(text: str) -> str:
    """The dose ``text`` states ("400 mg", "5 g", "2 tablets"), or ""."""
    m = DOSE.search(text)
    if m is None:
        return ""
    amount = m.group("amount").lower()
    if not amount[0].isdigit() and m.group("unit").lower().rstrip("s") in ("mg", "mcg", "g", "ml"):
        return ""
    words = {"a": "1", "an": "1", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5"}
    amount = words.get(amount, "0.5" if amount.startswith("half") else amount)
    unit = m.group("unit").lower()
    unit = {"grams": "g", "gram": "g", "tabs": "tablets", "tab": "tablet", "caps": "capsules"}.get(
        unit, unit
    )
    return f"{amount} {unit}"


def part_of_day(text: str) -> str | None:
    m = PART.search(text)
    if m is None:
        return None
    if m.group("night"):
        return "night"
    part = m.group("part").lower()
    return _PARTS.get(part, part)


def date_said(text: str, today: datetime.date) -> datetime.date | None:
    """The day ``text`` names: today, yesterday, "the day before yesterday", "last/on Monday" or
    a bare "monday" (the latest such day up to today), an ISO date; None when none is said."""
    lower = text.lower()
    if m := re.search(r"\b(\d{4}-\d{2}-\d{2})\b", lower):
        try:
            return datetime.date.fromisoformat(m.group(1))
        except ValueError:
            return None
    if "day before yesterday" in lower:
        return today - datetime.timedelta(days=2)
    if re.search(r"\byesterday\b|\blast night\b", lower):
        return today - datetime.timedelta(days=1)
    if re.search(r"\btoday\b|\bthis (morning|afternoon|evening)\b|\btonight\b", lower):
        return today
    if m := re.search(r"\b(?:on|last)\s+(" + "|".join(DAY_NAMES) + r")\b", lower):
        back = (today.weekday() - DAY_NAMES.index(m.group(1))) % 7
        return today - datetime.timedelta(days=back or (7 if "last" in m.group(0) else 0))
    # a bare weekday ("tweaked my back saturday") is the latest one too, never one to come
    if m := re.search(r"(?<!next )(?<!this )\b(" + "|".join(DAY_NAMES) + r")\b", lower):
        return today - datetime.timedelta(days=(today.weekday() - DAY_NAMES.index(m.group(1))) % 7)
    return None


# --- readiness: the log's three scales, 1-5, from the words people use --------------------------

_MUCH = r"(?:really|very|super|so|extremely|incredibly|insanely|crazy|pretty|quite)\s+"
_LITTLE = r"(?:(?:a\s+)?(?:bit|little)|slightly|kind\s+of|kinda|somewhat|mildly)\s+"
SLEEP = (
    (
        rf"slept\s+(?:{_MUCH})?(?:great|amazing|awesome)|slept\s+{_MUCH}(?:well|good)"
        r"|slept\s+like\s+a\s+(?:baby|log|rock)|great\s+sleep",
        5,
    ),
    (r"slept\s+(?:well|good|fine)|good\s+sleep|sleep\s+was\s+good|(?:9|8|nine|eight)\s+hours", 4),
    (
        r"slept\s+(?:ok|okay|alright|all\s+right)|(?:ok|okay|decent)\s+sleep|sleep\s+was\s+(?:ok|okay|fine)",
        3,
    ),
    (
        rf"slept\s+{_MUCH}(?:badly|bad|poorly|terribly|awfully)|(?:no|zero)\s+sleep|(?:barely|hardly)\s+slept"
        r"|didn'?t\s+sleep\s+at\s+all|slept\s+(?:terribly|awfully|like\s+(?:crap|shit|garbage))"
        r"|terrible\s+sleep|awful\s+sleep|insomnia|sleep\s+was\s+(?:terrible|awful|horrible)",
        1,
    ),
    (
        r"slept\s+(?:badly|bad|poorly)|bad\s+sleep|poor\s+sleep|didn'?t\s+sleep\s+(?:well|much)"
        r"|sleep\s+was\s+(?:bad|poor|rubbish|crap)"
        r"|(?:rough|restless)\s+night",
        2,
    ),
)
_BARELY = r"(?:barely|hardly|scarcely|not\s+at\s+all)\s+"
_NOT_VERY = r"not\s+(?:very|really|too|that|so|overly)\s+"
SORENESS = (
    (rf"not\s+(?:sore|stiff)|(?:no|zero|0)\s+soreness|{_BARELY}(?:sore|stiff)", 1),
    (r"(?:feel|feeling|legs(?:\s+feel)?)\s+fresh", 1),
    # "legs are fine", "legs feel good", "body feels great": nothing sore
    (
        r"\b(?:legs|body|muscles)\s+(?:are|were|feel|feels|felt|feeling)\s+"
        r"(?:(?:pretty|really|totally|all)\s+)?(?:fresh|good|great|fine|ok|okay|alright)\b",
        1,
    ),
    (rf"{_NOT_VERY}(?:sore|stiff)", 2),
    (rf"{_MUCH}(?:sore|stiff)|(?:wrecked|destroyed|can'?t\s+walk)", 5),
    (rf"{_LITTLE}(?:sore|stiff)", 2),
    (r"\b(?:sore|stiff|doms)\b", 4),
)
STRESS = (
    (
        r"not\s+stress(?:ed|ful)|(?:no|zero|0)\s+stress|relaxed|chill(?:ed)?\b|calm\b"
        r"|stress[- ]free",
        1,
    ),
    (r"(?:low|little|minimal)\s+stress", 2),
    (rf"{_BARELY}stress(?:ed|ful)", 1),
    (rf"{_NOT_VERY}stress(?:ed|ful)", 2),
    (rf"{_MUCH}stress(?:ed|ful)|stressed\s+out|overwhelmed|burn(?:ed|t)\s+out", 5),
    (rf"{_LITTLE}stress(?:ed|ful)", 3),
    (r"\bstress(?:ed|ful)?\b|anxious|hectic", 4),
)
SCALE = re.compile(r"\b(sleep|soreness|sore|stress)\s*(?:is|was|:|=)?\s*([1-5])(?:\s*/\s*5)?\b", F)


# "stress is low", "soreness: high", "sleep was great": a scale named with a level word. Read
# before the scales' own words, so "stress is low" is never the bare word "stress" (4).
_LEVEL_NAMES = {
    "sleep_quality": r"(?:sleep|sleep\s+quality)",
    "soreness": r"(?:soreness|doms|legs|body|muscles)",
    "stress": r"(?:stress|stress\s+level|work)",
}
_LEVELS = (
    (r"(?:none|zero|nothing|non-?existent|minimal|very\s+low)", 1, 5),
    (r"(?:low|lowish|light|mild|fine|ok|okay|not\s+bad|manageable)", 2, 4),
    (r"(?:moderate|medium|average|so-?so|meh|normal)", 3, 3),
    (r"(?:high|heavy|bad|rough)", 4, 2),
    (r"(?:very\s+high|really\s+high|through\s+the\s+roof|insane|terrible|awful|crap|shit)", 5, 1),
    (r"(?:great|amazing|awesome|excellent|perfect|good)", 1, 5),
)
_LEVEL = re.compile(
    r"\b(?P<name>\w+(?:\s+\w+)?)\s+(?:is|was|were|are|level\s+is|levels\s+are|:|=)\s+"
    r"(?:(?:really|very|pretty|quite|super)\s+)?(?P<level>[\w-]+(?:\s+[\w-]+){0,3})",
    F,
)


def _level(text: str, key: str) -> int | None:
    """The level a sentence gives a named scale ("stress is low" 2): for sleep the best word is 5,
    for soreness and stress the highest is 5 (a "great" sleep is 5, a "great" stress is no log)."""
    for m in _LEVEL.finditer(text):
        if not re.fullmatch(_LEVEL_NAMES[key], m.group("name").split()[-1], F):
            continue
        level = m.group("level").lower()
        for pattern, scale, sleep in sorted(_LEVELS, key=lambda rule: -len(rule[0])):
            if re.match(pattern + r"\b", level):
                if key == "sleep_quality":
                    return sleep
                return None if pattern.startswith("(?:great") else scale
    return None


def _scale(text: str, rules: tuple[tuple[str, int], ...]) -> int | None:
    for pattern, value in rules:
        if re.search(pattern, text, F):
            return value
    return None


# Sleep said as hours slept ("slept like 4 hours", "5 hours of sleep", "slept 7h"): a short night
# is a poor one, on the log's 1-5 scale: under 5 hours 1, 5 hours 2, 6 hours 3, 7 or more 4 (a
# full night is good; how long is never "great", which is a word for how well).
_ABOUT = (
    r"(?:(?:like|about|around|maybe|only|just|barely|nearly|almost|roughly|prolly|probably)\s+)*"
)
_HOURS = r"(?P<{}>\d{{1,2}}(?:\.\d)?|" + "|".join(NUMBER_WORDS) + r")\s*(?:hours?|hrs?|h)\b"
SLEEP_HOURS = re.compile(
    rf"\bslept\s+(?:for\s+)?{_ABOUT}{_HOURS.format('hours')}"
    rf"|\b{_ABOUT}{_HOURS.format('slept')}\s+(?:of\s+)?sleep\b",
    F,
)


def sleep_hours(text: str) -> int | None:
    """The sleep scale of the hours ``text`` says were slept (see ``SLEEP_HOURS``), or None."""
    m = SLEEP_HOURS.search(text)
    if m is None:
        return None
    raw = (m.group("hours") or m.group("slept")).lower()
    hours = float(NUMBER_WORDS.get(raw, raw) if not raw[0].isdigit() else raw)
    return 1 if hours < 5 else 2 if hours < 6 else 3 if hours < 7 else 4


def readiness(text: str) -> dict[str, int]:
    """The readiness scales ``text`` states: ``sleep_quality``, ``soreness``, ``stress``; a scale
    not mentioned is left out."""
    found: dict[str, int] = {}
    for m in SCALE.finditer(text):
        key = {"sleep": "sleep_quality", "sore": "soreness"}.get(m.group(1).lower(), m.group(1))
        found[key.lower()] = int(m.group(2))
    if "sleep_quality" not in found and (hours := sleep_hours(text)) is not None:
        found["sleep_quality"] = hours
    for key, rules in (("sleep_quality", SLEEP), ("soreness", SORENESS), ("stress", STRESS)):
        if key not in found and (value := _level(text, key) or _scale(text, rules)) is not None:
            found[key] = value
    return found


# Words of how the athlete is or what they did, never a medicine they took ("log my mood as 2").
# Nor what people "take" that is no medicine: time off, a nap, a walk, a photo ("took a rest day"
# is a day off, never a medicine called "rest day").
NOT_TAKEN = re.compile(
    r"\b(?:mood|feeling|feel|readiness|energy|stress|sleep|slept|soreness|workout|run|ride|"
    r"session|weight|meal|breakfast|lunch|dinner|snack|rest|day|off|nap|walk|hike|stroll|jog|"
    r"swim|break|breather|breath|shower|bath|holiday|vacation|week|weekend|time|photo|picture|"
    r"pic|selfie|test|exam|class|lesson|course|trip|step|stair|seat|turn|chance|look|fall|"
    r"tumble|spill|hit|beating|note|call|bus|train|taxi|car|dog|kid|easy|while|minute|second|"
    r"hour|lap|game|match|race|loss|sip|bite|shot\s+at|set|rep|kg|kgs|lb|lbs|km|mile|squat|lunge|"
    r"press|deadlift|row|curl|plank|pull-?up|push-?up|exercise|plan|program|beer|wine|drink|"
    r"alcohol|shot\s+of\s+\w+)(?:s|es)?\b",
    re.I,
)
# A medicine's name is a short noun phrase: not a particle ("took out the lunges", "took it
# easy"), not a clause ("took ages to warm up"), not a letter.
_PARTICLE = re.compile(
    r"^(?:out|off|up|down|over|away|back|home|apart|it|them|that|this|those|these|care|part|"
    r"place|ages|forever|long|advantage|notes?)\b|\bto\s+[a-z]+\b",
    re.I,
)


def not_a_medicine(name: str) -> bool:
    """Whether the words after "took"/"had" are plainly no medicine or supplement: how the athlete
    is or what they did (``NOT_TAKEN``), a particle or a clause, a letter, or more than four
    words."""
    words = name.split()
    return (
        bool(NOT_TAKEN.search(name) or _PARTICLE.search(name))
        or len(name.strip()) < 3
        or len(words) > 4
    )
