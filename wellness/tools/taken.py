"""What the athlete took, in everyday words: "I took 400 mg ibuprofen", "took my vitamin d and
fish oil" (two logs, one a name), "had 5g creatine and fish oil at 9pm" (the dose stays with the
name it is glued to, the time is both's).

Names joined by "and", ",", "&" or "plus" are one log each. A dose goes with the name it is said
against ("5g creatine", "creatine 5g and fish oil"); a dose said after the last of several names
("creatine and fish oil 5g"), or with "each"/"both", could be any of them or all: asked, never
guessed. A day, a clock time or a part of the day is said once for all of them."""

from __future__ import annotations

import datetime
import re

from django.utils import timezone

from coach.llm.offline.grammar import CommandError, Parsed
from coach.llm.offline.language import Ask, NotMeant, Slots
from wellness import services

from . import said
from .offline import SUPPLEMENTS
from .words import CARE_PLACES
from .writes import TAKEN_THINGS

# How two names are joined: "vitamin d and fish oil", "zinc, magnesium", "zinc & iron",
# "creatine plus beta-alanine" (an Oxford comma's ", and" too).
JOINED = re.compile(r"\s*,\s*(?:and\s+|&\s+|plus\s+)?|\s+(?:and|plus)\s+|\s*&\s*", re.I)
_WHEN = re.compile(
    r"\b(?:at\s+\d{1,2}(?::\d{2})?\s*(?:am|pm)?|today|just\s+now|now|earlier|already|"
    r"(?:the\s+day\s+before\s+)?yesterday|(?:(?:on|last)\s+)?(?:mon|tues|wednes|thurs|fri|satur|"
    r"sun)day|\d{4}-\d{2}-\d{2})\b",
    re.I,
)
# what it was for or around: "ibuprofen for my knee", "creatine before my run"
_PURPOSE = re.compile(
    r"\s+(?:before|after|during|for|because of|due to|to help with)\s+(?:my|the|a|an)\s.*$", re.I
)
_COUNT = re.compile(r"(\d+|one|two|three|four|five|a couple of)\s+(\S.*)$", re.I)
# A joined part that starts a clause, not a name: "took my creatine and went for a run".
_CLAUSE = re.compile(
    r"^(?:i|i'm|i've|im|ive|then|also|it|we|he|she|they|was|were|is|am|went|got|ate|ran|did|"
    r"felt|had|took|slept|made|came|left|drank|saw|hit|\w+ed|\w+ing)\b",
    re.I,
)
_SHARED_DOSE = re.compile(r"\b(?:each|both|of\s+each|apiece)\b", re.I)


def typed(slots: Slots) -> str:
    """The athlete's latest message as typed (before any typo correction)."""
    for turn in reversed(slots.world.turns):
        if turn.role == "user":
            text = turn.athlete_text if turn.athlete_text is not None else turn.content
            return (text or "").replace("\u2019", "'")
    return slots.text


def _as_typed(words: str, message: str) -> str:
    """The words as the athlete typed them, commas included (the matcher drops punctuation:
    "zinc, magnesium and iron" is three names, "zinc magnesium" would be one)."""
    pattern = r"[\s,;]+".join(re.escape(word) for word in words.split())
    found = re.search(rf"(?<!\w){pattern}(?!\w)", message, re.I) if pattern else None
    return found.group(0) if found else words


def _named(part: str) -> tuple[str, str, bool]:
    """The name and the dose one joined part says, and whether its dose follows the name
    ("fish oil 5g") rather than leading it ("5g fish oil")."""
    dose = said.dose(part)
    m = said.DOSE.search(part)
    name = re.sub(said.DOSE.pattern + r"(?:\s+of)?", " ", part, flags=re.I)
    name = re.sub(said.PART.pattern, " ", name, flags=re.I)
    name = _WHEN.sub(" ", name)
    name = _SHARED_DOSE.sub(" ", name)
    name = re.sub(r"^\s*(?:of|my|a|an|some|the|his|her)\s+", "", name.strip(), flags=re.I)
    name = re.sub(r"\s+", " ", name).strip(" ,.")
    count = _COUNT.match(name)
    if count and not dose:  # "two paracetamol": two of them
        number = count.group(1).lower()
        dose = "2" if number == "a couple of" else str(said.NUMBER_WORDS.get(number, number))
        name = count.group(2)
    after = bool(dose and m and name and part.lower().find(name.lower()) < m.start())
    return name, dose, after


def _check(name: str, slots: Slots) -> None:
    if any(re.match(rf"{re.escape(place)}\b", name, re.I) for place, _ in CARE_PLACES):
        # "had physio today": a care session, never a medicine called "physio".
        raise NotMeant
    if said.not_a_medicine(name):
        # "log my mood as 2", "log my sleep": how the athlete is, not a medicine they took.
        raise NotMeant
    if not re.search(rf"(?<!\w){re.escape(name)}(?!\w)", typed(slots), re.I):
        # A name the typo correction made ("took a cold shower" read as "cold show"): a log is
        # written at once, so a medicine is logged as typed, never as a guess.
        raise NotMeant


def _kind(name: str) -> str:
    return "supplement" if any(s in name.lower() for s in SUPPLEMENTS) else "medication"


def medicine(slots: Slots) -> list[Parsed] | Ask:
    """One ``log_medication`` for each name the athlete says they took (see the module
    docstring); a dose that can't be told to one name is asked."""
    text = _as_typed(str(slots.get("taken", "")).strip(), typed(slots))
    verb = str(slots.words.get("took_verb", "") or "").lower()
    parts = [p for p in JOINED.split(_PURPOSE.sub("", text)) if p.strip(" ,.")]
    if any(_CLAUSE.match(part.strip()) for part in parts[1:]):
        raise NotMeant
    read = [_named(part) for part in parts]
    named = [n for n in read if n[0]]
    loose = [dose for name, dose, _ in read if not name and dose]
    if not named:
        raise CommandError('Say what you took, e.g. "I took 400 mg ibuprofen".')
    for name, _, _ in named:
        _check(name, slots)
    if loose and len(named) == 1 and not named[0][1]:
        named = [(named[0][0], loose[0], True)]  # "took ibuprofen, 400mg": its dose
    elif loose:
        named[-1] = (named[-1][0], named[-1][1] or loose[0], True)
    if len(named) > 1 and (
        named[-1][2] or (_SHARED_DOSE.search(text) and any(d for _, d, _ in named))
    ):
        # "creatine and fish oil 5g", "5g each of creatine and beta-alanine": whose dose?
        dose = next(d for _, d, _ in named if d)
        names = [n for n, _, _ in named]
        return Ask(
            f"Which did you take {dose} of?",
            tuple(
                f"took {' and '.join(f'{dose} {n}' if n == name else n for n in names)}"
                for name in names[:3]
            ),
        )
    when, shared = "", {}
    date = said.date_said(text, slots.world.today)
    time = said.clock(text)
    if date is None and time is not None:
        date = _last_evening(slots, time)
    if date is not None and date != slots.world.today:
        shared["date"] = date.isoformat()
        when = f" on {date:%A}"
    if time:
        shared["time"] = time
        when += f" at {time}"
    elif part := said.part_of_day(text):
        shared["part_of_day"] = part
        when += f" ({part})"
    built = []
    for name, dose, _ in named:
        kind = _kind(name)
        has_object = dose or kind == "supplement" or set(name.lower().split()) & TAKEN_THINGS
        if verb == "had" and not has_object and not re.match(r"\s*my\b", text, re.I):
            raise CommandError(
                f'I only log a medicine or supplement you say you took, so I logged nothing for "{name}". '
                'Say it like "I had 400 mg ibuprofen".'
            )
        args: dict = {"medication_name": name[:80], "kind": kind}
        if dose:
            args["dose"] = dose
        args.update(shared)
        built.append(
            Parsed("log_medication", args, f"log {kind} {name}{f', {dose}' if dose else ''}{when}")
        )
    return built


def _last_evening(slots: Slots, time: str) -> datetime.date | None:
    """ "took 2 advil at 6:30pm" said after midnight, before 6 am: that time is yesterday's (the
    day has not reached it yet); any other time with no day said is today's."""
    athlete = getattr(slots.world.ctx, "athlete", None)
    now = services.local_now(athlete) if athlete is not None else timezone.localtime()
    if now.date() == slots.world.today and now.hour < 6 and time > f"{now:%H:%M}":
        return slots.world.today - datetime.timedelta(days=1)
    return None
