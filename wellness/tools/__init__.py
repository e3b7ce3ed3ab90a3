"""The wellness family (medication, mood and readiness logs, reminders, care records), declared
for ``coach.registry``: ``TOOLS`` in the order the model sees them, ``PURPOSES``; and for
``coach.plan``, ``NOTICES`` (the reminders the chat posts, ``wellness.tools.notices``)
and ``DEMO`` (``wellness.tools.demo``)."""

from . import demo, notices, reads, writes

TOOLS = (*writes.SPECS, *reads.SPECS)
PURPOSES = {
    "wellness": (
        "log medication or supplements, mood and readiness the athlete states; reminders; care "
        "records (visits, injuries, physio); read them back"
    ),
}
NOTICES = (notices,)
DEMO = demo.demo  # seed_demo's part of this family (coach.plan)
NAV = (("Wellness", "wellness:page"),)  # its page in the site's menu (chat.context_processors)
