"""Who may see and change a program: the one rule, used by the admin, the views and the tools.

* An athlete sees and changes their own programs (changes reach them through the chat's Apply).
* A coach sees and changes the programs they coach (``Program.coach``).
* Staff (members of the "Staff" group) see every program and change none, unless the program is
  their own as athlete or coach.
* A superuser sees and changes everything.

Every object of the programs app names its program (``get_owner_object()``), so these checks
serve weeks, sessions, exercises, logged sets and revisions alike. ``program_scope`` gives the same
rule as a ``Q`` on any model with a path to its program, for querysets.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet

from .models import Program

COACHES_GROUP = "Coaches"
STAFF_GROUP = "Staff"


def is_staff_reader(user: Any) -> bool:
    """A superuser or a member of the Staff group: reads every program (cached on the user)."""
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_superuser:
        return True
    if not hasattr(user, "_spotter_in_staff_group"):
        user._spotter_in_staff_group = user.groups.filter(name=STAFF_GROUP).exists()
    return user._spotter_in_staff_group


def _own(user: Any, program: Program) -> bool:
    return user.pk is not None and user.pk in (program.athlete_id, program.coach_id)


def can_view_program(user: Any, program: Program) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    return is_staff_reader(user) or _own(user, program)


def can_edit_program(user: Any, program: Program) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    return user.is_superuser or _own(user, program)


def program_scope(user: Any, *, lookup: str = "", edit: bool = False) -> Q | None:
    """The rows (reached from their model through ``lookup``, e.g. ``"week__program"``) whose
    program ``user`` may view (or edit); None means every row, ``Q(pk__in=[])`` none."""
    if not getattr(user, "is_authenticated", False):
        return Q(pk__in=[])
    if user.is_superuser or (not edit and is_staff_reader(user)):
        return None
    prefix = f"{lookup}__" if lookup else ""
    return Q(**{f"{prefix}athlete": user}) | Q(**{f"{prefix}coach": user})


def _scoped(queryset: QuerySet, scope: Q | None) -> QuerySet:
    return queryset if scope is None else queryset.filter(scope)


def programs_visible_to(user: Any) -> QuerySet:
    return _scoped(Program.objects.all(), program_scope(user))


def programs_editable_by(user: Any) -> QuerySet:
    return _scoped(Program.objects.all(), program_scope(user, edit=True))


def scope_queryset(queryset: QuerySet, user: Any, *, lookup: str, edit: bool = False) -> QuerySet:
    """``queryset`` narrowed to the rows whose program (through ``lookup``) ``user`` may reach."""
    return _scoped(queryset, program_scope(user, lookup=lookup, edit=edit))
