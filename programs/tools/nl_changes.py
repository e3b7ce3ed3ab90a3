"""What the program family's everyday sentences change in an exercise (``language``): its name,
sets, reps, load, rest and warm-up sets, skipped or not; adding, removing and moving one. Every
builder takes the match (``Slots``) and returns the tool calls a model would make, or a question.

Without a week or a day, a change of what an exercise is (its name, sets, reps, load, rest)
applies wherever it is planned from the current week on; adding, removing, skipping and moving
touch the current week's session only (one session, never the program's future by surprise)."""

from __future__ import annotations

import re
from typing import Any

from coach.llm.offline.grammar import CommandError, Parsed
from coach.llm.offline.language import Ask, NotMeant, Slots

from .nl_data import Planned, exercise_names, plan
from .nl_instead import instead
from .nl_loads import in_own_unit, shifted
from .nl_refs import exercises_meant

DEFAULT_SETS, DEFAULT_REPS, DEFAULT_REST = 3, "10", 120
_NOT_A_NAME = re.compile(
    r"\b(?:weeks?|sessions?|workouts?|days?|after|before|sets?|reps?|exercises?|rest|calendar"
    r"|minutes?|mins?|hours?|run|ride|swim|jog|every|starting|today|tonight|tomorrow"
    r"|plan|program|library|list|reminder|note|meal|recipe|grocery|groceries"
    r"|(?:mon|tues|wednes|thurs|fri|satur|sun)days?|until|till|through|thru|onwards?)\b",
    re.I,
)
UNITS = [
    ("kg", "kg"),
    ("kgs", "kg"),
    ("kilo", "kg"),
    ("kilos", "kg"),
    ("kilogram", "kg"),
    ("kilograms", "kg"),
    ("lb", "lbs"),
    ("lbs", "lbs"),
    ("pound", "lbs"),
    ("pounds", "lbs"),
    ("%", "%"),
    ("percent", "%"),
    ("per cent", "%"),
]
SECONDS = [
    ("s", 1),
    ("sec", 1),
    ("secs", 1),
    ("second", 1),
    ("seconds", 1),
    ("min", 60),
    ("mins", 60),
    ("minute", 60),
    ("minutes", 60),
]


def new_title(name: str, *, exercise: bool = True) -> str:
    """The new name as typed, capitalised; an exercise's must not hold the program's structure
    words (a wildcard that swallowed "week 4" is no exercise)."""
    name = re.sub(r"^(?:some|a|an|the)\s+", "", str(name).strip(), flags=re.I).strip(" \"'")
    if not name:
        raise CommandError('Say which exercise, e.g. "add dips to Wednesday".')
    if exercise and _NOT_A_NAME.search(name):
        # "add week Deload after week 4": words of the program's structure are no exercise
        raise NotMeant(name)
    return name[:1].upper() + name[1:]


def _modify(found: list[Planned] | Ask, change: Any, what: str) -> list[Parsed] | Ask:
    """One modify_exercise per occurrence; ``change`` maps an occurrence to its updates."""
    if isinstance(found, Ask):
        return found
    calls = []
    for e in found:
        updates = change(e)
        calls.append(
            Parsed(
                "modify_exercise",
                {
                    "weekNumber": e.week,
                    "sessionNumber": e.session,
                    "exerciseNumber": e.position,
                    "updates": updates,
                },
                f"week {e.week}: {what.format(name=e.name)}",
            )
        )
    return calls


def load_of(slots: Slots) -> str | None:
    if "load" not in slots:
        return None
    unit = slots.get("unit") or "lbs"
    return f"{slots.get('load')}%" if unit == "%" else f"{slots.get('load')} {unit}"


# A "new name" that names no exercise: the athlete wants something else and hasn't said what.
_VAGUE = re.compile(
    r"^(?:(?:some|any)(?:thing|one)|whatever|another|other|(?:an? )?(?:different|alternative|new)"
    r"|an alternative|alternatives?|not)\b",
    re.I,
)


def swap(slots: Slots) -> list[Parsed] | Ask:
    if _VAGUE.match(str(slots.get("new_name", "")).strip()):
        return instead(slots)
    if (asked := other_named(slots)) is not None:
        return asked
    new_name = new_title(slots.get("new_name", ""))
    return _modify(
        exercises_meant(slots, every_week=True),
        lambda e: {"name": new_name},
        "change {name} to " + new_name,
    )


def _reps_shifted(reps: str, by: int) -> str:
    shifted = [str(max(1, int(n) + by)) for n in re.findall(r"\d+", reps)]
    if not shifted:
        raise CommandError(f'Say how many reps, e.g. "{reps} → 12 reps".')
    return "-".join(shifted)


def volume(slots: Slots) -> list[Parsed] | Ask:
    """Sets and/or reps: "three sets of ten", "4x12", "one more set", "fewer reps", "reps to 12"."""
    if (asked := complaint_only(slots)) is not None:
        return asked
    found = exercises_meant(slots, every_week="day" not in slots and "when" not in slots)
    sets, reps = slots.get("sets"), slots.get("reps")
    more_sets, more_reps = slots.get("more_sets"), slots.get("more_reps")
    if sets is None and reps is None and more_sets is None and more_reps is None:
        return Ask("How many sets and reps? e.g. “3 sets of 10”.")
    if isinstance(found, Ask):
        return found
    said_load = load_of(slots)

    def change(e: Planned) -> dict[str, Any]:
        updates: dict[str, Any] = {}
        if sets is not None:
            updates["workingSets"] = int(sets)
        elif more_sets is not None:
            updates["workingSets"] = max(1, e.sets + int(more_sets) * int(slots.get("times", 1)))
        if reps is not None:
            updates["reps"] = str(reps)
        elif more_reps is not None:
            updates["reps"] = _reps_shifted(e.reps, int(more_reps) * int(slots.get("times", 1)))
        if said_load is not None:
            updates["targetLoad"] = said_load
        elif "bare_load" in slots:  # "5 sets of 5 at 225": a load in the exercise's own unit
            updates["targetLoad"] = in_own_unit(slots, e)
        if updates.get("workingSets", 1) < 1 or updates.get("workingSets", 1) > 20:
            raise CommandError("An exercise takes 1 to 20 working sets.")
        return updates

    words = []
    if sets is not None or more_sets is not None:
        words.append("sets")
    if reps is not None or more_reps is not None:
        words.append("reps")
    if said_load is not None or "bare_load" in slots:
        words.append("load")
    return _modify(found, change, "change {name}'s " + " and ".join(words))


def warmups(slots: Slots) -> list[Parsed] | Ask:
    count = int(slots.get("sets"))
    return _modify(
        exercises_meant(slots, every_week="day" not in slots),
        lambda e: {"warmupSets": count},
        f"{{name}}: {count} warm-up sets",
    )


def load(slots: Slots) -> list[Parsed] | Ask:
    """A load with its unit ("225 lbs", "100 kg"); heavier/lighter without one is a question whose
    chips name a few loads."""
    if (asked := complaint_only(slots)) is not None:
        return asked
    found = exercises_meant(slots, every_week="day" not in slots and "when" not in slots)
    if isinstance(found, Ask):
        if slots.get("direction") and not found.options:  # no exercise named at all
            return Ask("Which exercise should be heavier or lighter, and at what load?")
        return found  # e.g. "the rows" of a plan with two: which one, as chips
    if "bare_load" in slots:  # "bump squats to 140": pounds, kilos or reps? asked, never guessed
        n, text = slots.get("bare_load"), slots.text
        said = str(slots.words.get("bare_load") or n)
        whole = float(n).is_integer() and int(n) <= 30
        options = ["lbs", "kg"] + (["reps"] if whole else [])
        return Ask(
            f"{n} what: " + ", ".join(options[:-1]) + f" or {options[-1]}?",
            tuple(text.replace(said, f"{said} {u}", 1) for u in options),
        )
    if slots.get("delta"):
        sign = "+" if int(slots.get("delta")) > 0 else "−"
        said = f"{sign}{slots.get('load')} {slots.get('unit') or 'lbs'}"
        return _modify(found, lambda e: {"targetLoad": shifted(e, slots)}, "{name} " + said)
    target = load_of(slots)
    if target is None:
        e = found[0]
        step = int(slots.get("direction") or 1)
        m = re.match(r"\s*(\d+(?:\.\d+)?)\s*(kg|lbs?)?", e.load or "")
        if not m:
            return Ask(f"What load should {e.name} be? e.g. “{e.name} at 60 kg”.")
        unit = m.group(2) or "lbs"
        now, jump = float(m.group(1)), (2.5 if unit == "kg" else 5)
        options = tuple(
            f"put {e.name} at {now + step * k * jump:g} {unit}"
            for k in (1, 2)
            if now + step * k * jump > 0
        )
        return Ask(f"{e.name} is at {e.load}. How {'heavy' if step > 0 else 'light'}?", options)
    return _modify(found, lambda e: {"targetLoad": target}, "{name} at " + target)


def rest(slots: Slots) -> list[Parsed] | Ask:
    seconds = int(slots.get("rest")) * int(slots.get("rest_unit") or 1)
    if not 0 <= seconds <= 900:
        raise CommandError("Rest between sets is 0 to 15 minutes.")
    return _modify(
        exercises_meant(slots, every_week="day" not in slots),
        lambda e: {"restSeconds": seconds},
        f"{{name}}: rest {seconds} s",
    )


# Words that say when, not why: a "reason" holding them ("skip squats from next week on") was a
# time the grammar didn't read, and a skip of this week would change the wrong weeks.
_NOT_A_REASON = re.compile(
    r"\b(?:weeks?|every|each|from|until|till|onwards?|starting|rest of|next|all|sessions?"
    r"|workouts?|always|anymore|any more|forever|permanently)\b",
    re.I,
)


def skip(slots: Slots) -> list[Parsed] | Ask:
    """Skip an exercise ("today" said of one planned another day of the week is that week's: seed
    000's "I can't do squats today, skip that exercise")."""
    reason = _reason(slots)
    if _NOT_A_REASON.search(reason) or _names_a_day_first(slots, reason):
        raise NotMeant(reason)

    what = "skip {name}" + (f" ({reason})" if reason else "")
    # The reason is kept in the proposal's words, not written into the exercise: its notes are the
    # athlete's own and were not asked to change.
    return _modify(exercises_meant(slots, every_week=False), lambda e: {"skipped": True}, what)


# Words that join a reason to its request ("my knee hurts, so …", "… because I'm tired").
_JOINERS = re.compile(
    r"^(?:(?:and|so|because|cause|cuz|since|as|but|coz)\b[\s,]*)+|[\s,]*(?:\b(?:so|and|but))?$",
    re.I,
)


_DAY_WORDS = re.compile(
    r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)day'?s?\b|\b(?:today|tonight|tomorrow|yesterday)\b",
    re.I,
)


def _names_a_day_first(slots: Slots, reason: str) -> bool:
    """A "reason" said before the request that names a day ("on wednesday i'm busy, skip
    deadlifts") may be the day meant: not read as a reason."""
    return (
        bool(reason)
        and slots.text.lower().startswith(reason.lower()[:10])
        and bool(_DAY_WORDS.search(reason))
    )


def complaint_only(slots: Slots) -> Ask | None:
    """A complaint said before a change ("squats are killing my knees, lower the weight to 90
    kg") that holds a time or a day ("… are on friday this week, …") was a time the grammar didn't
    read: not meant, so that the change never lands on weeks the athlete didn't say. One that
    names another exercise asks which (``other_named``)."""
    reason = _reason(slots)
    if reason and (_NOT_A_REASON.search(reason) or _DAY_WORDS.search(reason)):
        raise NotMeant(reason)
    return other_named(slots)


def other_named(slots: Slots) -> Ask | None:
    """A complaint that names another exercise than the one the sentence opens with ("squats are
    fine but deadlifts are too heavy, …"): which one changes is asked, never guessed."""
    said = _reason(slots).lower()
    named = set(slots.get("exercise") or ())
    if not said or not named:
        return None
    others = {
        n
        for words, names in exercise_names(slots.world)
        if re.search(rf"(?<![\w-]){re.escape(words)}(?![\w-])", said)
        for n in names
    } - named
    if not others:
        return None
    options = sorted(named | others)
    return Ask(
        "Which exercise should change: " + ", ".join(options[:-1]) + f" or {options[-1]}? "
        "Say the change again with the one you mean."
    )


def _reason(slots: Slots) -> str:
    """Why, as said ("my shoulder is killing me"), without the words that joined it on."""
    reason = str(slots.get("reason") or "").strip(" ,.;")
    return _JOINERS.sub("", reason).strip(" ,.;")


def remove(slots: Slots) -> list[Parsed] | Ask:
    """Remove an exercise from one workout; "no more squats" or "… for good" (``ongoing``) from
    every workout still ahead that has it (this week's past days are left as they were)."""
    reason = _reason(slots)
    if _NOT_A_REASON.search(reason) or _names_a_day_first(slots, reason):
        raise NotMeant(reason)  # "from next week no more squats": a time unread
    found = exercises_meant(slots, every_week=False)
    if isinstance(found, Ask):
        return found
    if slots.get("ongoing"):
        p, today = plan(slots.world), slots.world.today
        found = [
            e for e in found if (date := p.slot(e.week, e.session).date) is None or date >= today
        ]
        if not found:
            raise CommandError("That exercise isn't planned in any workout still ahead.")
        # the last position of a session first: removing it moves none of the others
        found = sorted(found, key=lambda e: (e.week, e.session, -e.position))
    elif len(found) > 1:
        return Ask(
            "Remove it from which workout?",
            tuple(
                f"remove {e.name} from {plan(slots.world).slot(e.week, e.session).day or 'week ' + str(e.week)}"
                for e in found
            ),
        )
    return [
        Parsed(
            "remove_exercise",
            {"weekNumber": e.week, "sessionNumber": e.session, "exerciseNumber": e.position},
            f"week {e.week}: remove {e.name}",
        )
        for e in found
    ]
