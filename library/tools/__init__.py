"""The library family (search the workout library, schedule or save a workout, open a page),
declared for ``coach.registry``: ``TOOLS`` in the order the model sees them, ``PURPOSES``."""

from .. import demo, evals
from . import workouts

TOOLS = tuple(workouts.SPECS)
PURPOSES = {
    "library": "search the workout library, put a workout on the calendar or save one, open a page",
}
DEMO = demo.demo  # seed_demo's part of this family (coach.plan)
NAV = (("Library", "library:index"),)  # its page in the site's menu (chat.context_processors)
EVAL = evals  # its part of the coach's evaluation scenarios (chat.evals, coach.plan)
