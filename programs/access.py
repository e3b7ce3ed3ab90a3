"""What the programs family tells the access policy (``access.policy``, the one rule), and the
program-shaped names its admin and tests use.

* A program is its athlete's; its coach is ``Program.coach``, who reads and changes it. Staff
  read every program and change none, unless it is their own as athlete or coach; a superuser
  changes everything.
* Programs also say who coaches whom: an athlete's coaches are the coaches of their programs
  (``COACHING``), which is how a coach reaches the training data, logs, workouts and household of
  the athletes they coach.

Every object of the programs app names its program (``get_owner_object()``), so the policy's
checks serve weeks, sessions, exercises, logged sets and revisions alike.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from access.policy import (
    ACT,
    COACHES_GROUP,
    READ,
    STAFF_GROUP,
    Coaching,
    Owner,
    may_act,
    may_read,
    visible,
)

from .models import Program

__all__ = ["COACHES_GROUP", "STAFF_GROUP"]  # the groups, named once in access.policy

OWNERS = [
    Owner(
        model=Program,
        people=lambda program: {program.athlete_id},
        people_lookup="athlete",
        coaches=lambda program: {program.coach_id},
        coaches_lookup="coach",
    )
]
COACHING = Coaching(model=Program, athlete="athlete", coach="coach")


def can_view_program(user: Any, program: Program) -> bool:
    return may_read(user, program)


def can_edit_program(user: Any, program: Program) -> bool:
    return may_act(user, program)


def programs_visible_to(user: Any) -> QuerySet[Program]:
    return visible(Program.objects.all(), user)


def programs_editable_by(user: Any) -> QuerySet[Program]:
    return visible(Program.objects.all(), user, action=ACT)


def scope_queryset(queryset: QuerySet, user: Any, *, lookup: str, edit: bool = False) -> QuerySet:
    """``queryset`` narrowed to the rows whose program (through ``lookup``) ``user`` may reach."""
    return visible(queryset, user, lookup=lookup, action=ACT if edit else READ)
