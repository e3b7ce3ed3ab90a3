"""Being ill, said without a session or days ("I'm sick", "im sick, cant train"), for the schedule
family's sentences (``training.tools.language``): which change is meant (today's session skipped,
or the next days lighter) is asked with chips, never guessed. A sentence that names the session
("skip tomorrow, I'm sick", "can't train today, I'm sick") is a skip with its reason
(``say_schedule``)."""

from __future__ import annotations

from coach.llm.offline.grammar import CommandError
from coach.llm.offline.language import Ask, Intent, Slots

from .said_sessions import planned
from .say_schedule import BECAUSE

# Being ill, said without a session or days: a question, never a guessed write.
SICK_LEAD = (
    "(i'm|im|i am|i feel|i'm feeling|im feeling|feeling|i've been|ive been|been|i got|i've got|"
    "ive got|got|i have|i think i'm|i think im|i think i have|i think i've got)"
)
SICK = (
    "[really|so|pretty|a bit|a little|kinda|kind of|super|quite|very] (sick|ill|unwell|poorly|"
    "under the weather|not well|not feeling well|a cold|a fever|the flu|flu|covid|a bug|"
    "a stomach bug|a virus|food poisoning|a chest infection|coming down with something)"
)
CANT_TRAIN = (
    "[so] [i] (can't|cant|cannot|won't|wont|can not|not able to) (train|work out|workout|"
    "make it|do it|lift|run|go to the gym|exercise)"
)


def _sick(slots: Slots) -> Ask:
    """ "I'm sick", "im sick, cant train": no session or days said, so which change is asked
    (today's session skipped, or the next days lighter), never guessed."""
    world = slots.world
    if getattr(world.ctx, "program", None) is None:
        raise CommandError("Sorry you're not well. You have no program yet, so nothing to change.")
    today = [p for p in planned(world) if p.date == world.today and not p.completed]
    chips = ["skip today's workout because I'm sick"] if len(today) == 1 else []
    chips += [f"make the next {n} days lighter" for n in (3, 5)]
    what = f"skip today's session ({today[0].name})" if len(today) == 1 else "skip a session"
    return Ask(
        f"Sorry you're not feeling well. Should I {what}, or make the next few days lighter?",
        tuple(chips),
    )


INTENTS = (
    Intent(
        "feeling_sick",
        (
            f"[{SICK_LEAD}] {SICK} [today|right now|atm|at the moment|this week] [{CANT_TRAIN}]",
            f"{CANT_TRAIN} [{BECAUSE}] {SICK_LEAD} {SICK} [today|right now|atm]",
        ),
        build=_sick,
        examples=("I'm sick, can't train",),
    ),
)
