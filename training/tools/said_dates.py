"""Dates as people write them, for the training family's sentences (``training.tools.language``).

A date in a sentence is the rule ``date_rule(prefix)``: the words of the lists every family
shares (``SHARED``'s ``when``: today, tomorrow, yesterday; ``day``: the weekdays) with what people
put around them ("on Friday", "next Friday", "Friday next week", "last Friday"), "the day after
tomorrow", "in 3 days", "2 days ago", "Dec 5" / "5 December" / "the 5th of December", "the 5th",
and "12/5". A sentence that names two
dates (a session moved from one to the other) uses two prefixes, so each date has its own slots.

How a date is read (``date_said``):

* A bare weekday in a change means this week's, as every family reads it (``day_of``; the
  preview shows the date before anything is applied), while it is still to come. The day a change
  lands on is never in the past: one that has passed ("on friday" said on a Saturday) is the
  next one, and one that is today is asked (today or a week away, both as chips). A session
  named by a passed weekday ("friday's workout" said on a Saturday) is asked: that one or the
  next. "this Friday" is this week's, "next Friday" next week's. In a
  question about training done (and a session marked done) it is the latest such day up to
  today (Friday, asked on a Tuesday, is last Friday).
* "Dec 5" is the Dec 5 nearest today; "the 5th" the next 5th for a change, the last one for a read.
* "12/5" is a question when both orders are dates (December 5 or May 12?).
"""

from __future__ import annotations

import datetime
import re

from coach.llm.offline.grammar import CommandError
from coach.llm.offline.language import SHARED, Ask, Slots, World

MONTHS = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
]
ORDINALS = [
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
    "eleventh",
    "twelfth",
    "thirteenth",
    "fourteenth",
    "fifteenth",
    "sixteenth",
    "seventeenth",
    "eighteenth",
    "nineteenth",
    "twentieth",
]


def _months() -> list[tuple[str, int]]:
    pairs = []
    for number, name in enumerate(MONTHS, start=1):
        pairs += [(name, number), (name[:3], number), (name[:3] + ".", number)]
    pairs += [("sept", 9), ("sept.", 9)]
    return list(dict.fromkeys(pairs))


def _ordinals() -> list[tuple[str, int]]:
    pairs = [(word, n) for n, word in enumerate(ORDINALS, start=1)]
    pairs += [("twenty " + w, 20 + n) for n, w in enumerate(ORDINALS[:9], start=1)]
    pairs += [("twenty-" + w, 20 + n) for n, w in enumerate(ORDINALS[:9], start=1)]
    pairs += [("thirtieth", 30), ("thirty first", 31), ("thirty-first", 31)]
    return pairs


def _numeric() -> list[tuple[str, str]]:
    pairs = []
    for a in range(1, 32):
        for b in range(1, 32):
            if a <= 12 or b <= 12:
                for left in {str(a), f"{a:02d}"}:
                    for right in {str(b), f"{b:02d}"}:
                        pairs.append((f"{left}/{right}", f"{a}/{b}"))
    return pairs


RELATIVE = [
    ("the day after tomorrow", 2),
    ("day after tomorrow", 2),
    ("the day before yesterday", -2),
    ("day before yesterday", -2),
    ("overmorrow", 2),
]
THIS, NEXT, LAST = (
    ("", "on ", "this ", "on this ", "this coming ", "coming ", "on this coming "),
    ("next ", "on next ", "{} next week", "on {} next week"),
    ("last ", "on last ", "{} last week", "on {} last week", "this past ", "past "),
)


def _day_words() -> list[tuple[str, str]]:
    """Days said in words, built from the lists every family shares (``SHARED``'s ``day`` and
    ``when``): "friday", "on fri", "next friday", "friday next week", "last friday", "tomorrow",
    "the day after tomorrow". The value is ``day:<weekday>:<weeks from this one>``, ``when:<word>``
    or ``shift:<days>``. One list, not a rule of alternatives: the matcher looks a list's words up
    by their first letter, so a sentence costs the same whatever the number of forms."""
    pairs: list[tuple[str, str]] = []
    for words, index in SHARED.values["day"]:
        for weeks, forms in ((0, THIS), (1, NEXT), (-1, LAST)):
            for form in forms:
                said = form.format(words) if "{}" in form else form + words
                bare = weeks == 0 and form in ("", "on ")  # "friday": this week's or the next?
                pairs.append((said, f"day:{index}:{weeks}" + (":bare" if bare else "")))
    for words, when in SHARED.values["when"]:
        pairs += [
            (words, f"when:{when}"),
            (f"on {words}" if when != "today" else words, f"when:{when}"),
        ]
    pairs += [(words, f"shift:{days}") for words, days in RELATIVE]
    return list(dict.fromkeys(pairs))


VALUES = {
    "training_month": _months(),
    "training_ordinal": _ordinals(),
    "training_numeric": _numeric(),
    "training_day_word": _day_words(),
}
RANGES = {"training_dom": (1, 31)}


def date_rule(p: str) -> str:
    """The template of one date, its slots named ``<p>_…``."""
    th = "[st|nd|rd|th]"
    dom, month = f"{{training_dom:{p}_dom}}{th}", f"{{training_month:{p}_month}}"
    nth = f"{{training_ordinal:{p}_dom}}"
    return (
        "("
        f"{{training_day_word:{p}_word}}"
        f"|in {{count:{p}_in}} days"
        f"|{{count:{p}_ago}} days ago"
        f"|[on] ([the] ({dom}|{nth}) [of] {month}|{month} [the] ({dom}|{nth})|the ({dom}|{nth})"
        f"|{{training_numeric:{p}_num}})"
        ")"
    )


SHIFTS = {"today": 0, "tomorrow": 1, "yesterday": -1}


def _said(slots: Slots, p: str) -> bool:
    return any(name.startswith(p + "_") for name in slots.values)


def _month_day(today: datetime.date, month: int, dom: int) -> datetime.date:
    """The ``month``/``dom`` nearest ``today`` (last, this or next year)."""
    found = []
    for year in (today.year - 1, today.year, today.year + 1):
        try:
            found.append(datetime.date(year, month, dom))
        except ValueError:
            continue
    if not found:
        raise CommandError(f"{MONTHS[month - 1].capitalize()} has no day {dom}.")
    return min(found, key=lambda d: abs((d - today).days))


def _nth(today: datetime.date, dom: int, *, past: bool) -> datetime.date:
    """The next (or, for a read, the last) date whose day of the month is ``dom``."""
    candidates = []
    for shift in (-2, -1, 0, 1, 2):
        month0 = today.month - 1 + shift
        year, month = today.year + month0 // 12, month0 % 12 + 1
        try:
            candidates.append(datetime.date(year, month, dom))
        except ValueError:
            continue
    if past:
        return max(d for d in candidates if d <= today)
    return min(d for d in candidates if d >= today)


def spoken(day: datetime.date) -> str:
    """ "December 4": how a date is retold in a question's chips (and understood again)."""
    return f"{MONTHS[day.month - 1].capitalize()} {day.day}"


def told(day: datetime.date) -> str:
    """ "Friday, December 4": a date in a question or an answer."""
    return f"{day:%A}, {spoken(day)}"


def _retold(slots: Slots, key: str, words: str) -> str:
    said = slots.words.get(key, "")
    text = slots.text
    if said and re.search(re.escape(said), text, re.I):
        return re.sub(re.escape(said), words, text, count=1, flags=re.I)
    return text


def date_said(
    slots: Slots, p: str, *, past: bool = False, change: bool = False
) -> datetime.date | Ask | None:
    """The date the ``<p>_…`` slots name, an ``Ask`` when it could be two, or None when no date
    was said. ``past``: a question about training done (a bare weekday is the latest one).
    ``change``: a date a change lands on. A bare weekday that has passed this week ("on friday"
    said on a Saturday) is the next one, since a change never lands in the past; one that is today
    ("on friday" said on a Friday) could be today or a week away: asked."""
    world: World = slots.world
    today = world.today
    get = slots.get
    if not _said(slots, p):
        return None
    word = get(f"{p}_word")
    if word is not None:
        kind, _, rest = str(word).partition(":")
        if kind == "when":
            return today + datetime.timedelta(days=SHIFTS[rest])
        if kind == "shift":
            return today + datetime.timedelta(days=int(rest))
        index_said, weeks_said, *bare = rest.split(":")
        index, weeks = int(index_said), int(weeks_said)
        if weeks:
            return world.weekday(index) + datetime.timedelta(days=7 * weeks)
        day = _weekday(slots, index, past=past)
        if change and bare and day < today:
            return day + datetime.timedelta(days=7)  # nothing lands in the past: the next one
        if change and bare and day == today:
            return which_weekday(slots, day, f"{p}_word")
        return day
    if get(f"{p}_in") is not None:
        return today + datetime.timedelta(days=int(get(f"{p}_in")))
    if get(f"{p}_ago") is not None:
        return today - datetime.timedelta(days=int(get(f"{p}_ago")))
    if get(f"{p}_month") is not None:
        return _month_day(today, int(get(f"{p}_month")), int(get(f"{p}_dom")))
    if get(f"{p}_dom") is not None:
        dom = int(get(f"{p}_dom"))
        if not 1 <= dom <= 31:
            raise CommandError(f"No month has a day {dom}.")
        return _nth(today, dom, past=past)
    if get(f"{p}_num") is not None:
        return _numeric_date(slots, p)
    return None


def which_weekday(slots: Slots, day: datetime.date, key: str = "", span: str = "") -> Ask:
    """A bare weekday in a change that may be this one or the next (a target that is today, a
    session on a day that has passed): which?
    The chips retell the sentence with each date (``span``, or the words of slot ``key``)."""
    later = day + datetime.timedelta(days=7)
    this = "today" if day == slots.world.today else told(day)
    said = span or slots.words.get(key, "")

    def retold(words: str) -> str:
        if said and re.search(re.escape(said), slots.text, re.I):
            return re.sub(re.escape(said), words, slots.text, count=1, flags=re.I)
        return slots.text

    if span:
        first = "today's session" if day == slots.world.today else f"the session on {spoken(day)}"
        options = (retold(first), retold(f"the session on {spoken(later)}"))
    else:
        first = "today" if day == slots.world.today else spoken(day)
        options = (retold(first), retold(spoken(later)))
    return Ask(f"Which {day:%A} do you mean: {this} or {told(later)}?", options)


def _weekday(slots: Slots, index: int, *, past: bool) -> datetime.date:
    world = slots.world
    day = world.weekday(index)
    if past and day > world.today:
        return day - datetime.timedelta(days=7)
    return day


def _numeric_date(slots: Slots, p: str) -> datetime.date | Ask:
    today = slots.world.today
    a, b = (int(n) for n in str(slots.get(f"{p}_num")).split("/"))
    readings = []
    for month, dom in ((a, b), (b, a)):
        if month <= 12:
            try:
                readings.append(_month_day(today, month, dom))
            except CommandError:
                continue
    readings = list(dict.fromkeys(readings))
    if not readings:
        raise CommandError(f"{a}/{b} isn't a date.")
    if len(readings) == 1:
        return readings[0]
    key = f"{p}_num"
    return Ask(
        f"Which date do you mean by {slots.words.get(key, f'{a}/{b}')}: "
        f"{told(readings[0])} or {told(readings[1])}?",
        tuple(_retold(slots, key, spoken(d)) for d in readings),
    )
