"""The nutrition family (recipes, the meal planner, grocery lists), declared for
``coach.registry``: ``TOOLS`` in the order the model sees them, ``PURPOSES``."""

from .. import demo
from . import reads, writes

TOOLS = (*writes.SPECS, *reads.SPECS)
PURPOSES = {"nutrition": "recipes, the meal planner and grocery lists of the athlete's household"}
DEMO = demo.demo  # seed_demo's part of this family (coach.plan)
NAV = (("Food", "nutrition:meals"),)  # its page in the site's menu (chat.context_processors)
