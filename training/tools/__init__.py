"""The schedule family (move, skip, complete or log sessions; realign or lighten the plan) and the
training family (reads of activities, plan, sleep and fitness), declared for ``coach.registry``:
``TOOLS`` in the order the model sees them, ``PURPOSES`` one line per family; and for
``coach.plan``, ``ADJUSTMENTS`` (realign, lighter days, a session moved: ``training.plan_adjust``) and ``WHATIF``
(the preview's projected form: ``training.whatif``); for ``coach.rules``, ``RULES`` (the dry run
warns when a change puts a session on a day the athlete can't train: ``training.availability``)."""

from .. import availability, demo, evals
from .. import plan_adjust as adjustments
from .. import whatif as projection
from . import plan_adjust, reads, schedule

TOOLS = (*schedule.SPECS, *plan_adjust.SPECS, *reads.SPECS)
PURPOSES = {
    "schedule": "move, skip, complete or log the program's sessions; add a custom workout",
    "training": "read logged activities, the planned calendar, sleep and fitness scores",
}
ADJUSTMENTS = adjustments
WHATIF = projection
RULES = (availability.RULE,)
DEMO = demo.demo  # seed_demo's part of this family (coach.plan)
# Its pages in the site's menu, as (label, URL name), after the chat (chat.context_processors).
NAV = (
    ("Log", "training:log_today"),
    ("Calendar", "training:calendar"),
    ("Fitness", "training:fitness"),
    ("Activities", "training:activities"),
)
# Its pages linked under the week in the chat's panel (chat.context_processors).
PANEL = (("Fitness & form", "training:fitness"), ("Activities", "training:activities"))
EVAL = evals  # its part of the coach's evaluation scenarios (chat.evals, coach.plan)
