"""A lighter stretch or a realigned plan in everyday words (``training.tools.language``): "make
the next 4 days easier, im run down", "go easy on me this week", "get me back on track". Each is
the documented call (``training.tools.offline``), previewed and applied on Apply; a lighter
stretch of "a few days" is asked, and free words that ask for more than a lighter plan ("im
skipping friday") are not this request."""

from __future__ import annotations

from coach.llm.offline.grammar import CommandError, Parsed
from coach.llm.offline.language import Ask, Intent, NotMeant, Slots

from ..plan_adjust import MAX_DAYS, MIN_DAYS
from .say_schedule import BECAUSE, LEAD, MORE_ASKED, MOVE_ASKED


def _lighten(slots: Slots) -> Parsed | Ask:
    if MOVE_ASKED.search(str(slots.get("why") or "")) or MORE_ASKED.search(
        str(slots.get("why") or "")
    ):
        # "make the next 4 days easier, im skipping friday": more is asked than a lighter plan.
        raise NotMeant
    days = slots.get("days")
    if slots.get("weeks") is not None:
        days = int(slots.get("weeks")) * 7
    if not days:
        return Ask(
            f"For how many days should your plan be lighter ({MIN_DAYS} to {MAX_DAYS})?",
            tuple(f"make the next {n} days lighter" for n in (3, 5, 7)),
        )
    days = int(days)
    if not MIN_DAYS <= days <= MAX_DAYS:
        raise CommandError(f"A lighter stretch lasts {MIN_DAYS} to {MAX_DAYS} days, not {days}.")
    return Parsed("lighten_plan", {"days": days}, f"make the next {days} days lighter")


def _realign(slots: Slots) -> Parsed:
    return Parsed("realign_plan", {}, "realign your plan to start from today")


# How the athlete feels, said after a complete request ("make the next 4 days easier, im run
# down"): only as a statement about themselves, so no other request hides in the free words.
AFTER = (
    f"[{BECAUSE}] (i'm|im|i am|i feel|feeling|i've been|ive been|been|i got|i've got|ive got|my)"
    " {training_why:why}"
)
PERIOD = (
    "(<the> next {count:days} days|<the> next {count:weeks} weeks|{training_span:days}"
    "|{count:days} days|{count:weeks} weeks)"
)

INTENTS = (
    Intent(
        "lighten_plan",
        (
            f"[{{training_feeling:feeling}}] {LEAD} (make|keep) {PERIOD} (easier|lighter|easy|light)"
            f" [{AFTER}]",
            f"[{{training_feeling:feeling}}] {LEAD} (make|keep) <the> (plan|training|program|workouts) "
            f"(easier|lighter) [for] [{PERIOD}]",
            f"[{{training_feeling:feeling}}] {LEAD} (go|take it) (easy|easier|light|lighter) [on me] [for] [{PERIOD}]"
            f" [{AFTER}]",
            f"[{{training_feeling:feeling}}] {LEAD} (lighten|ease|dial back|tone down|scale back|back off) "
            f"[up] [on] (<the> (plan|training|program|workouts|load)|things) [up] [for] [{PERIOD}]",
            f"{LEAD} (lighten|ease) [up] <the> (plan|training|program|workouts|load)"
            " {training_feeling:feeling}",
            "[{training_feeling:feeling}] i need (an easier|a lighter|an easy|a light) {training_span:days}",
            f"[{{training_feeling:feeling}}] {LEAD} (ease off|back off|ease up|dial it back|tone it"
            f" down|scale it back|slow down) [for] [{PERIOD}]",
            f"[{{training_feeling:feeling}}] {LEAD} (lighter|easier) {PERIOD}",
            f"[{{training_feeling:feeling}}] {LEAD} (lighten|ease) [up] [on] {PERIOD}",
        ),
        build=_lighten,
        examples=("make the next 5 days lighter", "go easy on me this week"),
    ),
    Intent(
        "realign_plan",
        (
            f"[{{training_feeling:feeling}}] {LEAD} (realign|re-align|reset|restart|resync|re-sync|readjust|"
            "rearrange|adjust|update) <the> (plan|program|schedule|training) [to today|from today"
            "|to start today|to start from today|to start again today]",
            f"[{{training_feeling:feeling}}] {LEAD} get me back on track",
            f"[{{training_feeling:feeling}}] {LEAD} (restart|resume) <the> (plan|program) (today|from today)",
        ),
        build=_realign,
        examples=("I missed a few days, realign my plan",),
    ),
)

VALUES = {
    "training_span": [
        ("the next week", 7),
        ("next week", 7),
        ("this week", 7),
        ("a week", 7),
        ("the week", 7),
        ("the rest of the week", 7),
        ("the next few days", 0),
        ("a few days", 0),
        ("a couple of days", 0),
        ("the next couple of days", 0),
        ("few days", 0),
        ("week", 7),
        ("couple of days", 0),
    ],
}
