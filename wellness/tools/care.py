"""Care records in everyday words (``language``'s builds): a visit or a session told ("went to
the physio yesterday", "physio appointment went well today", "got a massage yesterday"), an
injury told with its verb ("rolled my ankle") or as a pain that has lasted since a day ("my
shoulder's been hurting since tuesday", "ankle's been sore for 3 days": the record is dated the
day it started).

A record is what happened: a visit said with the future ("physio tomorrow at 3", "my doctor's
appointment was moved") is none, and a lasting pain whose start can't be read from the words
("since the marathon", "for a while") is asked, never guessed. Muscles sore in the plural ("my
quads have been sore since monday") are training soreness, not an injury."""

from __future__ import annotations

import datetime
import re

from django.utils import timezone

from coach.llm.offline.grammar import Parsed
from coach.llm.offline.language import Ask, NotMeant, Slots
from wellness import services

from . import said
from .words import CARE_PLACES, ROLLED_JOINTS, SORE_MUSCLES

_DATE_WORDS = re.compile(
    r"\b(?:yesterday|today|this (?:morning|afternoon|evening)|last night|earlier|the day before "
    r"yesterday|(?:(?:on|last)\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun)day|"
    r"at \d{1,2}(?::\d{2})?\s*(?:am|pm)?|\d{4}-\d{2}-\d{2})\b",
    re.I,
)
# What a record is not: a visit still to come, or one that didn't happen.
_NOT_HAPPENED = re.compile(
    r"\b(?:tomorrow|tmrw|tmr|next|later|upcoming|coming up|soon|tonight|will|gonna|going to|"
    r"booked|scheduled|need to|have to|should|cancell?ed|called off|moved|postponed|"
    r"rescheduled|pushed|missed|skipped|didn't|did not|didnt|no show|isn't|wasn't|called|closed|"
    r"shut|off sick|(?:is|was|were) off|away|unavailable|booked up|full|on holiday|on vacation)\b"
    r"|'ll\b",
    re.I,
)
# What the visit's people said is no plan of the athlete's: "saw the physio, she said i should
# rest" is a visit; only the words before it are read for one that didn't happen.
_REPORTED = re.compile(
    r"\b(?:said|says|told|tells|thinks|reckons|recommended|recommends|advised|suggested|wants me)\b",
    re.I,
)


_PLACES = frozenset(w for w, _ in CARE_PLACES)


def _kind_of(slots: Slots) -> tuple[str, str]:
    """The record's kind and the place's words as said ("doctors" → "doctor")."""
    kind = slots.get("care_place") or "injury"
    place = slots.words.get("care_place", "")
    for end in ("'s", "s"):  # "doctors appointment": the doctor's
        if place.lower().endswith(end) and place.lower()[: -len(end)] in _PLACES:
            return kind, place[: -len(end)]
    return kind, place


def care(slots: Slots) -> Parsed:
    """A visit, a session or an injury said with its verb; the day said, else today."""
    kind, place = _kind_of(slots)
    rest = str(slots.get("care_rest") or "").strip()
    if kind != "injury" and _NOT_HAPPENED.search(_REPORTED.split(_as_typed(slots), 1)[0]):
        raise NotMeant  # "got a physio appointment tomorrow", "the physio was closed"
    date = said.date_said(slots.text, slots.world.today) or slots.world.today
    topic = _topic(rest)
    if kind == "injury":
        verb = slots.words.get("injury_verb", "hurt")
        part = str(slots.get("body_part", ""))
        if verb.lower() == "rolled" and part.lower() not in ROLLED_JOINTS:
            raise NotMeant  # "rolled my quads": foam rolling, never an injury
        side = f"{slots.get('body_side')} " if slots.get("body_side") else ""
        title = " ".join(f"{verb} my {side}{part} {topic}".split())
    else:
        visit = slots.words.get("care_visit", "")
        if "told_verb" in slots:  # "went well": what was told of it
            topic = _topic(f"{slots.get('told_verb')} {slots.get('care_told') or ''}")
        title = " ".join(f"{place} {visit}".split()) + (f": {topic}" if topic else "")
    return _record(kind, title, date, said.clock(rest) or _noon_or_now(slots, date))


def lasting_pain(slots: Slots) -> Parsed | Ask:
    """ "my shoulder's been hurting since tuesday": an injury dated the day the pain started."""
    part = str(slots.get("body_part", ""))
    if part.lower() in SORE_MUSCLES:
        raise NotMeant  # "my quads have been sore since monday": training soreness
    side = f"{slots.get('body_side')} " if slots.get("body_side") else ""
    pain = slots.get("pain") or "pain"
    title = f"{side}{part} {pain}"
    since = str(slots.get("pain_since") or "")
    if not since and re.search(r"\b(?:all|the whole) week\b", slots.text, re.I):
        since = "all week"
    if len(since.split()) > 5 or _REQUEST.search(since):
        raise NotMeant  # "since monday, skip squats tomorrow": a request follows, not a day
    start = started(since, slots.words.get("pain_from", "since"), slots.world.today)
    if start is None:
        if _NOT_HAPPENED.search(since):
            raise NotMeant
        said_pain = slots.words.get("pain", "hurting")
        told = f"my {side}{part} has been {said_pain}"
        return Ask(
            f"Since which day has your {side}{part} been {said_pain}? I'll date the record then.",
            (f"{told} since yesterday", f"{told} for 3 days", f"{told} for a week"),
        )
    return _record("injury", title, start, _noon_or_now(slots, start))


# Words that start a request or a new thought after the day a pain started.
_REQUEST = re.compile(
    r"\b(?:skip|move|swap|cancel|change|make|add|drop|lower|reduce|replace|push|reschedule|remind|"
    r"log|take|can|could|please|pls|should|so|but|what|how|do|and|then)\b",
    re.I,
)


def _noon_or_now(slots: Slots, date: datetime.date) -> str:
    """The time a record takes when none is said: noon, or the athlete's time now when it is
    today before noon (a record can't be in the future: "physio went well today" said at 9)."""
    athlete = getattr(slots.world.ctx, "athlete", None)
    now = services.local_now(athlete) if athlete is not None else timezone.localtime()
    if date == now.date() and now.hour < 12:
        return f"{now:%H:%M}"
    return "12:00"


def _as_typed(slots: Slots) -> str:
    """The words matched, or the athlete's whole message when they were read through a typo's
    correction ("the physio was closed" is not "was lose")."""
    for turn in reversed(slots.world.turns):
        if turn.role == "user":
            typed = (turn.athlete_text if turn.athlete_text is not None else turn.content) or ""
            return slots.text if slots.text.lower() in typed.lower() else typed
    return slots.text


def _topic(rest: str) -> str:
    topic = _DATE_WORDS.sub(" ", rest)
    topic = re.sub(
        r"^\s*(?:for|about|because of|with|to check|to look at)\s+", "", topic.strip(), flags=re.I
    )
    return re.sub(r"^(?:a|an|the|my)\s+", "", re.sub(r"\s+", " ", topic).strip(" ,."), flags=re.I)


def _record(kind: str, title: str, date: datetime.date, time: str) -> Parsed:
    title = (title[:1].upper() + title[1:])[:120]
    article = "an" if kind == "injury" else "a"
    return Parsed(
        "create_care_log",
        {"log_type": kind, "title": title, "occurred_at": f"{date.isoformat()}T{time}"},
        f"record {article} {kind}: {title} on {date:%A %-d %B} at {time}",
    )


# --- the day a pain started -----------------------------------------------------------------------

_AMOUNT = r"(?P<n>\d{1,2}|a|an|one|a couple(?: of)?|" + "|".join(said.NUMBER_WORDS) + ")"
_SPAN = re.compile(
    rf"^(?:the\s+)?(?:(?:last|past)\s+)?{_AMOUNT}\s+(?P<unit>day|week)s?(?:\s+ago)?\b"
)
_WEEKDAY = re.compile(r"\b(?:last\s+|on\s+)?(" + "|".join(said.DAY_NAMES) + r")(?:'?s)?\b")


def _count(word: str) -> int:
    word = word.lower()
    if word.isdigit():
        return int(word)
    if word in ("a", "an", "one"):
        return 1
    if word.startswith("a couple"):
        return 2
    return said.NUMBER_WORDS[word]


def started(words: str, said_with: str, today: datetime.date) -> datetime.date | None:
    """The day a pain began, from the words after "since" or "for" ("tuesday" → the last
    Tuesday before today, "the weekend" → the last Saturday, "3 days" → three days ago,
    "yesterday's run" → yesterday); None when they name no day."""
    text = re.sub(r"\s+(?:now|already|or so|or something|lol|tbh|ish)$", "", words.lower().strip())
    if m := _SPAN.match(text):  # "for 3 days", "since 2 days ago", "for a week"
        if said_with != "for" and not m.group(0).endswith("ago"):
            return None
        back = _count(m.group("n")) * (7 if m.group("unit") == "week" else 1)
        return today - datetime.timedelta(days=back) if 0 < back <= 90 else None
    if said_with == "for":
        return None  # "for my whole run" names no day
    if re.match(r"(?:the\s+)?day before yesterday", text):
        return today - datetime.timedelta(days=2)
    if re.match(r"(?:yesterday|last night)", text):
        return today - datetime.timedelta(days=1)
    if re.match(r"(?:this morning|this afternoon|earlier|today)\b", text):
        return today
    if re.match(r"(?:all|the whole)\s+week", text):  # since this week's monday
        return today - datetime.timedelta(days=today.weekday() or 7)
    if re.match(r"(?:the|last)\s+weekend", text):
        return today - datetime.timedelta(days=(today.weekday() - 5) % 7 or 7)
    if m := _WEEKDAY.search(text):  # "tuesday", "last friday", "my run on sunday"
        return today - datetime.timedelta(
            days=(today.weekday() - said.DAY_NAMES.index(m.group(1))) % 7 or 7
        )
    if m := re.search(r"\b(\d{4}-\d{2}-\d{2})\b", text):
        try:
            day = datetime.date.fromisoformat(m.group(1))
        except ValueError:
            return None
        return day if day <= today else None
    return None
