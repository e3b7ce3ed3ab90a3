"""Sleep and recovery asked in everyday words (``training.tools.language``): last night, a day,
the nights of a span ("how has my sleep been this month", "have I been getting enough sleep
lately"), and recovery, which has no score of its own: it is answered with the two reads the
athlete's data holds, form (fitness against fatigue) and the last week's sleep."""

from __future__ import annotations

from coach.llm.offline.grammar import CommandError, Parsed
from coach.llm.offline.language import Ask, Intent, Slots

from .args import MAX_SLEEP_DAYS
from .said_dates import date_said, told
from .say_reads import LEAD, SHOW, SPAN, fitness_read, span_days

RECENT = "(right now|today|at the moment|now|lately|recently|these days|this week)"
SLEPT_WHEN = f"[(in|over|during|for|across)] [{SPAN}]"
SLEEP_GOT = "(been getting|been having|had|got|gotten|get|getting|been sleeping|slept|sleep)"
SLEEP_VERB = f"[have|did|do|am] i {SLEEP_GOT}"
SLEEP_ASKED = f"(have|did|do|am) i {SLEEP_GOT}"  # a question: "I got good sleep" is a log


def _sleep(slots: Slots) -> Parsed:
    days = span_days(slots, 7) or 7
    if not 1 <= days <= MAX_SLEEP_DAYS:
        raise CommandError(f"Sleep is read for 1 to {MAX_SLEEP_DAYS} nights, not {days}.")
    return Parsed("get_sleep_data", {"days": days}, f"show your sleep of {days} nights")


def _recovery(slots: Slots) -> list[Parsed]:
    """Recovery has no score of its own: it is read as the two the athlete's data holds, form
    (fitness against fatigue) and the last nights' sleep, answered together."""
    return [fitness_read(slots), _sleep(slots)]


def _last_night(slots: Slots) -> Parsed:
    return Parsed("get_sleep_data", {"days": 1}, "show last night's sleep")


def _sleep_since(slots: Slots) -> Parsed | Ask:
    day = date_said(slots, "d", past=True)
    if isinstance(day, Ask):
        return day
    days = (slots.world.today - day).days + 1 if day else 1
    if not 1 <= days <= MAX_SLEEP_DAYS:
        raise CommandError(f"Sleep is read for the last 1 to {MAX_SLEEP_DAYS} nights.")
    return Parsed("get_sleep_data", {"days": days}, f"show your sleep since {told(day)}")


INTENTS = (
    Intent(
        "recovery",
        (
            f"{LEAD} (how's|how is|hows|how has|how was|what's|whats|what is|what about|how about"
            "|show [me]|check|tell me about|give me) <the> (recovery|recovery status|recovery"
            f" score|recovery level) [been] [looking|look|going|doing] [like] [{RECENT}]",
            f"how ((is|has) <the> body|am i|have i been|well am i|well have i been) recovering"
            f" [ok|okay|well|alright|fine] [{RECENT}] [(from|after) {{training_why:why}}]",
            f"am i recovering [ok|okay|well|alright|fine|enough] [{RECENT}]"
            " [(from|after) {training_why:why}]",
            f"how (recovered|well recovered) am i [{RECENT}] [(from|after) {{training_why:why}}]",
            f"(is|has) <the> recovery (good|ok|okay|bad|alright|fine|been good|been ok|been bad)"
            f" [{RECENT}]",
        ),
        build=_recovery,
        examples=("how's my recovery looking?",),
    ),
    Intent(
        "sleep_last_night",
        (
            "how did i sleep [last night]",
            "how (was|is) <the> sleep [last night]",
            "how (was|is) last night's sleep",
            "how (much|long|many hours) did i sleep [last night]",
        ),
        build=_last_night,
        examples=("how did I sleep last night?",),
    ),
    Intent(
        "sleep_on_day",
        ("how (did i sleep|was <the> sleep) <tr_day>",),
        build=_sleep_since,
        examples=("how did I sleep on Monday?",),
    ),
    Intent(
        "sleep",
        (
            f"how (well|much) (have i been|did i|am i) (sleeping|sleep) [(in|over|during|for)] {SPAN}",
            f"how (have i been|am i) sleeping [(in|over|during|for)] [{SPAN}|lately|recently]",
            f"{LEAD} {SHOW} <the> sleep [(data|score|scores)] [(from|of|for|in|over)] [{SPAN}]",
            f"(how's|how is|how was|what's|what is|hows|how has|what are) <the> sleep"
            f" [quality|score|scores|data|numbers] [been] [like] {SLEPT_WHEN}",
            # The verb in any tense, the amount or "enough" asked ("how much sleep have I been
            # getting the last month", "have I been getting enough sleep lately").
            f"how (have i|did i|do i) (slept|sleep) {SLEPT_WHEN}",
            f"how (much|many hours [of]) [sleep] {SLEEP_VERB} {SLEPT_WHEN}",
            f"{SLEEP_ASKED} (enough|good|decent|much) sleep {SLEPT_WHEN}",
            f"(have i been sleeping|am i sleeping|was i sleeping|have i slept|did i sleep)"
            f" (enough|well|ok|okay|badly|poorly|alright) {SLEPT_WHEN}",
        ),
        build=_sleep,
        examples=("how have I been sleeping this week?",),
    ),
)
