"""The coach admin: coaches edit their athletes' programs in Django's admin.

Django's admin has no nested inlines, so the hierarchy is three pages deep: a program lists its
weeks, a week its sessions, a session its exercises and its cardio block; each inline row links to
the page of the row. A program's History page lists its revisions with Undo and Restore.

* ``groups``: the Coaches and Staff groups and their permissions;
* ``formsets``: saving inline rows through the position services (``plan_order``);
* ``mixins``: scoping by ``access.policy`` and one revision per admin save or delete;
* ``inlines``, ``children`` (weeks, sessions, exercises), ``program`` (with its History),
  ``revisions`` (read-only list of every revision).

Every write goes through ``programs.services`` (which bump the program's version) inside
``programs.history.program_change(via="admin")``, in the request's transaction.

Who sees what (``access.policy``): a superuser sees and edits everything; a member of the
"Staff" group sees everything read-only (the group has only view permissions); a coach (a staff
user in the "Coaches" group) sees and edits only the programs they coach. Another coach's object
answers 404.
"""

from ..plan_templates import admin as template_admin  # noqa: F401 (registers its admin)
from . import children, program, revisions  # noqa: F401 (registers the admins)
from .formsets import PlacedRow, plan_order
from .groups import COACHES_GROUP, STAFF_GROUP, ensure_coach_group, ensure_staff_group

__all__ = [
    "COACHES_GROUP",
    "STAFF_GROUP",
    "PlacedRow",
    "ensure_coach_group",
    "ensure_staff_group",
    "plan_order",
]
