"""The schedule's changes in everyday words (``training.tools.language``): move, skip and complete
sessions (a lighter or realigned plan is ``say_lighten``'s). Each sentence becomes the same call
the documented command makes (``training.tools.offline``), previewed and applied on Apply. A
session may be said in one clause and moved in the next ("I missed yesterday's session, can we do
it tomorrow"); one said as missed is in the past.

Never a guess: a skip with no reason, a move with no day ("do it some other day"), a bare weekday
that has passed, a date with two sessions are questions with chips. The same session said twice
in one message ("I did yesterday's workout. Mark it as done.") is one call.
"""

from __future__ import annotations

import datetime
import re

from coach.llm.offline.grammar import CommandError, Parsed
from coach.llm.offline.language import Ask, Intent, NotMeant, Slots

from .said_dates import date_said, spoken, told
from .said_sessions import Planned, in_conversation, session_said

S, T = "<tr_session>", "<tr_to_date>"
IT = "<tr_focus>"
S_OR_IT = f"({S}|{IT})"
BECAUSE = "(because|as|since|cause|cuz|coz|due to)"
LEAD = "[<tr_lead>]"

_RATING = re.compile(
    r"[,.;!]?\s*(?:(?:i(?:'d)?\s+)?rated?\s+(?:it\s+)?)?\b([1-5]|one|two|three|four|five)"
    r"\s*(?:/\s*5|out\s+of\s+(?:5|five)|stars?)\b",
    re.I,
)
_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}


def _already(slots: Slots, tool: str, ref: str) -> bool:
    """This message already asked for ``tool`` on session ``ref`` ("... Mark it as done")."""
    return any(p.name == tool and p.arguments.get("workout_id") == ref for p in slots.world.said)


def _free(text: object) -> str:
    """A reason or a note as said, without the joining words and punctuation around it."""
    said = re.sub(
        r"^[\s,.;:!\-—]*(?:because of|because|as|since|cause|cuz|coz|due to|so)?\s*", "", str(text)
    )
    return said.strip(" ,.;:!—-")


def _session(slots: Slots) -> Planned | Ask:
    return session_said(slots, "s")


def _move(slots: Slots) -> Parsed | list[Parsed] | Ask:
    said_first = str(slots.get("reason") or "")
    if MOVE_ASKED.search(said_first) or MORE_ASKED.search(said_first):
        # The words before the session ask for more ("skip friday, tomorrow's can wait, push
        # it"): one move would leave the rest out.
        raise NotMeant
    # "I missed Sunday's long run": a session said as missed is in the past.
    session = session_said(slots, "s", past=bool(slots.get("missed")))
    if isinstance(session, Ask):
        return session
    if session.date is None:
        raise CommandError(f"{session.name} has no date yet, so it can't be moved by days.")
    if slots.get("shift") is not None:
        new: datetime.date | Ask | None = session.date + datetime.timedelta(
            days=int(slots.get("shift")) * int(slots.get("direction", 1))
        )
    else:
        new = date_said(slots, "t", change=True)
    if isinstance(new, Ask):
        return new
    if new is None and slots.get("later"):
        # "can we do it some other day": the day is asked, each chip a whole request.
        named = f"the {session.name.lower()} on {spoken(session.date)}"
        return Ask(
            f"To which day should {session.told} move?",
            tuple(f"move {named} to {day}" for day in ("tomorrow", "the day after tomorrow")),
        )
    if new is None:
        base = slots.text.rstrip(" ?.!")
        return Ask(
            f"To which day should {session.told} move?",
            tuple(f"{base} by {n}" for n in ("one day", "two days", "a week")),
        )
    if new == session.date:
        raise CommandError(f"{session.told} is already on that day.")
    if _already(slots, "reschedule_workout", session.ref):
        return []
    strategy = slots.get("strategy") or "swap"
    return Parsed(
        "reschedule_workout",
        {"workout_id": session.ref, "new_date": new.isoformat(), "strategy": strategy},
        f"move {session.told} to {told(new)}"
        + (" and push the sessions after it" if strategy == "push" else ""),
    )


def _swap_days(slots: Slots) -> Parsed | list[Parsed] | Ask:
    session, other = _session(slots), session_said(slots, "u")
    for found in (session, other):
        if isinstance(found, Ask):
            return found
    if session.ref == other.ref:
        raise CommandError("That is the same session twice.")
    if other.date is None or session.date is None:
        raise CommandError("Both sessions need a date to swap their days.")
    if _already(slots, "reschedule_workout", session.ref):
        return []
    return Parsed(
        "reschedule_workout",
        {"workout_id": session.ref, "new_date": other.date.isoformat(), "strategy": "swap"},
        f"swap the days of {session.told} and {other.told}",
    )


MOVE_ASKED = re.compile(
    r"\b(push|move|moving|resched\w*|postpone\w*|shift|bump|instead|do it on|swap|switch)\b"
    r"|\bto (mon|tue|wed|thu|fri|sat|sun)\w*|\bto (tomorrow|today|tonight|next week|the \d)",
    re.I,
)


_MORE_SESSIONS = re.compile(r"(?:or|and|nor|&|plus|as well as)\b", re.I)


def _skip(slots: Slots) -> Parsed | list[Parsed] | Ask:
    session = _session(slots)
    if isinstance(session, Ask):
        return session
    if _already(slots, "skip_workout", session.ref):
        return []
    reason = _free(slots.get("reason") or "")
    if _MORE_SESSIONS.match(reason):
        # "can't train today or tomorrow, ill": the "reason" goes on naming sessions; one skip
        # would leave the others out.
        raise NotMeant
    if MOVE_ASKED.search(reason):
        # "I can't make tomorrow's session, push it to Friday" asks for a move, not a skip whose
        # reason is "push it to Friday": a skip would change the wrong thing.
        raise NotMeant
    if slots.get("s_focus") and in_conversation(slots) is None:
        # "it" with no session named before is today's only by a guess ("I can't do squats
        # today, skip it" may mean the exercise): asked, with today's session as the chip.
        why = f" because {reason}" if reason else ""
        return Ask(
            f"Do you mean today's session, {session.told}?",
            (f"skip today's workout{why}",),
        )
    if not reason:
        base = slots.text.rstrip(" ,.!?")
        return Ask(
            f"Why are you skipping {session.told}? It stays in your plan with no load.",
            tuple(f"{base} because {why}" for why in ("I'm sick", "I'm travelling", "I need rest")),
        )
    return Parsed(
        "skip_workout",
        {"workout_id": session.ref, "reason": reason[:500]},
        f"skip {session.told} ({reason[:80]})",
    )


# Sessions that are care, not training ("had a physio session yesterday" is a visit to record,
# never yesterday's workout marked done).
_CARE = re.compile(
    r"\b(?:physio\w*|pt|physical\s+therapy|massage|chiro\w*|osteo\w*|doctor|doc|gp|therapy|"
    r"therapist|counsel\w*|rehab|acupuncture|dentist)\b",
    re.I,
)


def _complete(slots: Slots) -> Parsed | list[Parsed] | Ask:
    if _CARE.search(str(slots.words.get("notes") or "")):
        raise NotMeant
    session = session_said(slots, "s", past=True)  # done: a bare weekday is the latest one
    if isinstance(session, Ask):
        return session
    if _already(slots, "mark_workout_complete", session.ref):
        return []
    notes = str(slots.get("notes") or "")
    arguments: dict = {"workout_id": session.ref}
    rating = _RATING.search(notes)
    if rating:
        word = rating.group(1).lower()
        arguments["rating"] = _WORDS.get(word) or int(word)
        notes = notes[: rating.start()] + notes[rating.end() :]
    notes = _free(notes)
    if notes:
        arguments["notes"] = notes[:2000]
    return Parsed("mark_workout_complete", arguments, f"mark {session.told} done")


MORE_ASKED = re.compile(
    r"\b(skip\w*|miss\w*|drop\w*|cancel\w*|add\w*|remov\w*|delet\w*|swap\w*|switch\w*|"
    r"done|complet\w*|except|but|not|no|only)\b",
    re.I,
)


MOVE = "(move|push|postpone|reschedule|shift|bump|delay|put off|push back)"
SKIP = "(skip|miss|drop|cancel|scrap|sit out|bail on|take off)"
DONE_VERB = (
    "(did|done|finished|completed|crushed|smashed|nailed|killed|got through|knocked out|"
    "survived|managed)"
)
# "I can't make …": the session said before what is asked of it (a skip, or a move: "can't make
# it today, move it to tomorrow").
CANT = (
    "[i] (won't|will not|can't|cannot|can not|am not going to|'m not going to"
    "|not gonna|am not gonna|couldn't|could not|won't be able to|will not be able to"
    "|am not able to|'m not able to|'m unable to|am unable to)"
)
MAKE = "(make it|make|do|manage|train|work out|go|come|attend|get to) [to]"
# A session said as not done, before what is asked of it ("I missed yesterday's session, can we
# do it tomorrow", "tomorrow's session can wait, push it back a day").
MISSED = "[i] {training_missed:missed}"  # in the past: a bare weekday is the latest one
WAITS = (
    "(can wait|will have to wait|has to wait|needs to wait|isn't happening|is not happening"
    "|didn't happen|did not happen|won't happen|is not going to happen|isn't going to happen)"
)
NOT_DONE = f"({CANT} {MAKE} {S}|{MISSED} {S}|{S} {WAITS})"
# What is asked of the session said before: done on another day, in everyday words.
REDO = "(do|redo|make up|fit in|squeeze in|get in|have a go at)"
LATER = "{training_later:later}"
THAT_ONE = "(it|that|this|that one|the session|the workout|the training)"


def _moves(ref: str) -> tuple[str, ...]:
    """The shapes of a move, the session said as ``ref``."""
    return (
        f"{LEAD} {MOVE} {ref} [back|forward|over|out] (to|until|till|til|for|on|onto) {T}"
        " [instead] [{training_strategy:strategy}]",
        f"{LEAD} {MOVE} {ref} [back|forward|out|later] [by] {{count:shift}} days [later]"
        " [{training_strategy:strategy}]",
        f"{LEAD} {MOVE} {ref} [back|forward|out|later] [by] {{training_one_day:shift}} [later]"
        " [{training_strategy:strategy}]",
        f"{LEAD} {MOVE} {ref} [back|forward|out] to the {{training_next_day:shift}}",
        f"{LEAD} {MOVE} {ref} [back|forward|out] (to|until|till|into) {{training_week_on:shift}}",
    )


INTENTS = (
    Intent(
        "move_session",
        (
            *(f"{NOT_DONE} [so] {move}" for move in _moves(THAT_ONE)),
            # A complaint first ("legs are fried, tomorrow's session can wait, push it back").
            f"{{training_reason:reason}} {S} {WAITS} [so] {LEAD} {MOVE} {THAT_ONE} [back|forward]"
            f" ((to|until|till|for|on|onto) {T}|[by] ({{training_one_day:shift}}|{{count:shift}}"
            " days))",
            f"{NOT_DONE} [so] {LEAD} {REDO} {THAT_ONE} [in|up] [on] {T} [rather|instead]"
            " [{training_strategy:strategy}]",
            f"{NOT_DONE} [so] {LEAD} (make|fit|squeeze|get) {THAT_ONE} (up|in) [on] {T} [instead]",
            # No day said: the question of the day, never a guessed one.
            f"{NOT_DONE} [so] {LEAD} ({REDO}|{MOVE}) {THAT_ONE} [in|up] {LATER} [instead]",
            *_moves(S_OR_IT),
            f"{LEAD} do {S_OR_IT} {T} [rather] instead",
            f"{LEAD} (push|move|postpone|delay|bump|shift) [back] {S_OR_IT} [back|later]",
        ),
        build=_move,
        examples=("move tomorrow's workout to Friday", "push today's session by two days"),
    ),
    Intent(
        "swap_session_days",
        (f"{LEAD} (swap|switch|trade|flip) {S_OR_IT} (with|and|for) <tr_other_session>",),
        build=_swap_days,
        examples=("swap tomorrow's workout with Saturday's",),
    ),
    Intent(
        "skip_session",
        (
            f"{LEAD} {SKIP} {S} [<please>] [{{training_reason:reason}}]",
            f"{LEAD} {SKIP} {IT} [<please>] [{BECAUSE} {{training_reason:reason}}]",
            # Free words first ("I've got a cold, skip tomorrow"): only with the verb "skip",
            # which the matcher looks for before it tries every way to split the sentence.
            f"{{training_reason:reason}} [so] {LEAD} skip {S_OR_IT} [<please>]",
            f"{CANT} {MAKE} {S} [{{training_reason:reason}}]",
            f"{{training_reason:reason}} [so] {CANT} {MAKE} {S}",
        ),
        build=_skip,
        examples=("skip tomorrow's workout because I'm sick",),
    ),
    Intent(
        "complete_session",
        (
            f"{LEAD} (mark|log|record|set) {S_OR_IT} [as] (done|complete|completed|finished) [{{training_notes:notes}}]",
            f"[i] [just|already|have|'ve] {DONE_VERB} {S} [{{training_notes:notes}}]",
            f"[i] [just|already|have|'ve] {DONE_VERB} {IT}",
            f"{S} (is|was) (done|finished|complete) [{{training_notes:notes}}]",
            f"(done|finished) with {S} [{{training_notes:notes}}]",
            f"[i] (had|did|got in) (a|an) {{training_notes:notes}} (session|workout|training|one) {S}"
            " [{training_notes:notes}]",
        ),
        build=_complete,
        examples=("mark today's workout as done", "I did yesterday's workout, 4 stars"),
    ),
)

VALUES = {
    "training_later": [
        (words, True)
        for words in [
            "some other day",
            "another day",
            "on another day",
            "some other time",
            "another time",
            "later",
            "later on",
            "later in the week",
            "some time later",
            "some time this week",
            "on a different day",
        ]
    ],
    "training_missed": [
        (words, True)
        for words in [
            "missed",
            "skipped",
            "didn't do",
            "did not do",
            "didn't get to",
            "did not get to",
            "never did",
            "never got to",
            "couldn't get to",
            "could not get to",
            "wasn't able to do",
            "was not able to do",
            "bailed on",
            "blew off",
            "slept through",
            "forgot",
            "forgot about",
            "had to skip",
            "had to miss",
            "ran out of time for",
        ]
    ],
    "training_strategy": [
        ("and push the rest", "push"),
        ("and push everything after", "push"),
        ("and push everything after it", "push"),
        ("and shift the rest", "push"),
        ("and the rest", "push"),
        ("and the rest too", "push"),
        ("and everything after", "push"),
        ("and everything after it", "push"),
        ("and everything else", "push"),
        ("and all the rest", "push"),
        ("and push the rest of the week", "push"),
        ("swap them", "swap"),
        ("and swap them", "swap"),
        ("swap", "swap"),
        ("and replace what's there", "replace"),
        ("replacing what's there", "replace"),
    ],
    "training_one_day": [
        ("a day", 1),
        ("one day", 1),
        ("a couple of days", 2),
        ("a couple days", 2),
        ("a week", 7),
        ("one week", 7),
    ],
    "training_week_on": [
        ("next week", 7),
        ("the following week", 7),
        ("the week after", 7),
        ("the next week", 7),
    ],
    "training_next_day": [("day after", 1), ("next day", 1), ("one after", 1), ("day before", -1)],
}
