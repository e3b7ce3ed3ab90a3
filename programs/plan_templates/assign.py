"""Save a program as a template, and assign a template to athletes.

A template is the coach's: its program's athlete and coach are both the coach, and it is never
anyone's plan (``models.AthleteProgram``). Saving copies the plan only (no results), moving
nothing: the template keeps the program's dates, its first week's start being the template's day
0. Assigning makes each athlete their own program, every date moved by their start date minus
the template's, recorded as the program's first revision (``via`` admin, the coach as actor,
source ``template:<id>``), and remembers the template version it came from and which row came from
which (``TemplateAssignment.links``). Only the coach's own athletes (``access.policy.athletes_of``:
the athletes of the programs they coach) may be assigned; a superuser may assign anyone.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from access.policy import athletes_of, is_superuser

from .. import services
from ..editor.tree import program_tree
from ..history import program_change
from ..models import Program, ProgramTemplate, RevisionVia, TemplateAssignment
from .trees import pair, record_version, specs

MAX_ASSIGNED = 200  # athletes in one assignment


class TemplateError(ValueError):
    """A template action refused; the message is for a person, and nothing was written."""


@dataclass(frozen=True)
class Wanted:
    athlete_id: int
    start_date: datetime.date


def source(template: ProgramTemplate) -> str:
    return f"template:{template.pk}"


@transaction.atomic
def save_as_template(*, program: Program, coach: Any, name: str = "") -> ProgramTemplate:
    """A new template of ``coach``'s holding a copy of ``program``'s plan."""
    name = (name or program.name).strip()[:200]
    if not name:
        raise TemplateError("Give the template a name.")
    copy = services.program_create(
        athlete=coach, coach=coach, name=name, start_date=program.start_date
    )
    template = ProgramTemplate.objects.create(coach=coach, name=name, program=copy)
    with program_change(
        program=copy,
        actor=coach,
        via=RevisionVia.ADMIN,
        summary=f"Template “{name}” saved from “{program.name}”.",
        source=source(template),
    ):
        services.weeks_tree_insert(program=copy, position=1, specs=specs(program_tree(program), 0))
    record_version(template)
    return template


def may_assign_to(coach: Any) -> Any:
    """The athletes ``coach`` may give a template to (a queryset of users)."""
    users = get_user_model().objects.filter(is_active=True).order_by("username")
    if is_superuser(coach):
        return users
    return users.filter(pk__in=athletes_of(coach))


@transaction.atomic
def assign(
    *, template: ProgramTemplate, coach: Any, wanted: list[Wanted]
) -> list[TemplateAssignment]:
    """Each wanted athlete their own program from ``template``, all or none."""
    if not wanted:
        raise TemplateError("Choose at least one athlete and a start date for each.")
    if len(wanted) > MAX_ASSIGNED:
        raise TemplateError(f"At most {MAX_ASSIGNED} athletes at once.")
    athletes = may_assign_to(coach).in_bulk([w.athlete_id for w in wanted])
    if len(athletes) != len({w.athlete_id for w in wanted}):
        raise TemplateError("You can only assign a template to athletes you coach.")
    version = record_version(template)
    tree = program_tree(template.program)
    day0 = template.program.start_date
    made = []
    for want in wanted:
        athlete = athletes[want.athlete_id]
        program = services.program_create(
            athlete=athlete, coach=coach, name=template.name, start_date=want.start_date
        )
        days = (want.start_date - day0).days
        with program_change(
            program=program,
            actor=coach,
            via=RevisionVia.ADMIN,
            summary=f"Made from the template “{template.name}” (version {version.number}).",
            source=source(template),
        ):
            services.weeks_tree_insert(program=program, position=1, specs=specs(tree, days))
        made.append(
            TemplateAssignment.objects.create(
                template=template,
                program=program,
                start_date=want.start_date,
                version=version,
                made_from=version.number,
                links=pair(tree, program_tree(program)),
                assigned_by=coach,
            )
        )
    return made
