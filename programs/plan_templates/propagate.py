"""A template edit proposed to the athletes using it: each athlete's own dry run, then the
coach's apply to all or some, each through the tool engine.

``proposals`` reads what every behind assignment needs at once (the template's newest version and
sessions, every athlete's program: a constant number of queries however many athletes and weeks)
and merges (``merge.propose``). ``preview`` is one athlete's dry run (``coach.engine.preview_calls``
on their program, their dates). ``apply`` runs ``coach.engine.apply_batch`` per chosen athlete:
one change set each, all or nothing for that athlete, undoable, recorded with the coach as actor
(``via`` admin, source ``template:<id>``), bound to the athlete's program version the coach saw
and to the template version proposed. An assignment then is in step with that version, its
conflicts decided (kept, or overwritten where the coach chose).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import QuerySet

from coach.engine import apply_batch, preview_calls
from coach.preview_card import whatif_rows
from coach.tools.base import ToolContext

from ..editor.service import call_items
from ..editor.translate import Translation, translate
from ..editor.tree import Problem, Row, TreeError, program_trees
from ..models import ProgramTemplate, RevisionVia, Session, TemplateAssignment, TemplateVersion
from ..services import program_version
from .assign import source
from .merge import Proposal, propose
from .trees import record_version


@dataclass
class Outcome:
    """One athlete's preview or apply, for the page."""

    proposal: Proposal
    calls: int = 0
    ok: bool = True
    applied: bool = False
    stale: bool = False
    items: list[dict[str, Any]] = field(default_factory=list)
    summary: str = ""
    warnings: list[str] = field(default_factory=list)
    whatif: list[dict[str, Any]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    message: str = ""


def behind(template: ProgramTemplate, latest: TemplateVersion) -> QuerySet:
    """The template's assignments not in step with ``latest``, with what the page shows."""
    return (
        TemplateAssignment.objects.filter(template=template, version__number__lt=latest.number)
        .select_related("program__athlete", "version")
        .order_by("program__athlete__username", "pk")
    )


def proposals(
    template: ProgramTemplate,
    assignments: list[TemplateAssignment],
    latest: TemplateVersion,
    overwrite: dict[int, set[str]] | None = None,
) -> list[tuple[Proposal, Translation]]:
    overwrite = overwrite or {}
    sessions = {
        str(s.pk): s
        for s in Session.objects.filter(week__program_id=template.program_id).select_related(
            "cardio"
        )
    }
    trees = program_trees([a.program_id for a in assignments])
    day0 = template.program.start_date
    out = []
    for assignment in assignments:
        proposal = propose(
            assignment=assignment,
            base=assignment.version.tree,
            now=latest.tree,
            weeks=trees[assignment.program_id],
            template_sessions=sessions,
            day0=day0,
            overwrite=overwrite.get(assignment.pk, set()),
        )
        try:
            translation = translate(
                current=trees[assignment.program_id], weeks=proposal.weeks, copies=proposal.copies
            )
        except TreeError as refused:  # said for this athlete; the others go on
            translation = Translation(problems=[Problem(key="", field="", message=str(refused))])
        out.append((proposal, translation))
    return out


def _ctx(assignment: TemplateAssignment, coach: Any) -> ToolContext:
    return ToolContext(athlete=assignment.program.athlete, program=assignment.program, user=coach)


def preview(
    *, template: ProgramTemplate, assignment: TemplateAssignment, coach: Any, overwrite: set[str]
) -> Outcome:
    """One athlete's dry run: nothing is written."""
    latest = record_version(template)
    [(proposal, translation)] = proposals(
        template, [assignment], latest, {assignment.pk: overwrite}
    )
    outcome = Outcome(proposal=proposal, calls=len(translation.calls))
    outcome.problems = [p.message for p in translation.problems]
    if outcome.problems or not translation.calls:
        outcome.ok = not outcome.problems
        outcome.message = "Nothing to change in their program." if outcome.ok else ""
        return outcome
    batch = preview_calls(ctx=_ctx(assignment, coach), calls=translation.calls)
    outcome.items, problems = call_items(translation, batch)
    outcome.problems = [p.message for p in problems]
    outcome.ok = batch.success
    outcome.summary = batch.preview.get("summary", "")
    outcome.warnings = batch.preview.get("warnings", [])
    outcome.whatif = whatif_rows(batch.preview.get("whatif", []))
    return outcome


def _relink(proposal: Proposal, latest: TemplateVersion) -> dict[str, dict[str, int]]:
    """The assignment's links after its apply: the rows it still has, and the rows added, found
    at the places the wanted tree put them (the translation keeps its order)."""
    now = latest.tree
    after = program_trees([proposal.assignment.program_id])[proposal.assignment.program_id]
    pks = {"week": set(), "session": set(), "exercise": set()}
    found: list[tuple[Row, Any, str]] = []
    if len(after) == len(proposal.weeks):
        for want, week in zip(proposal.weeks, after, strict=True):
            found.append((want, week, "week"))
            sessions = list(week.sessions.all())
            if len(sessions) == len(want.children):
                for want_s, session in zip(want.children, sessions, strict=True):
                    found.append((want_s, session, "session"))
                    exercises = list(session.exercises.all())
                    if len(exercises) == len(want_s.children):
                        found += [
                            (w, e, "exercise")
                            for w, e in zip(want_s.children, exercises, strict=True)
                        ]
    for week in after:
        pks["week"].add(week.pk)
        for session in week.sessions.all():
            pks["session"].add(session.pk)
            pks["exercise"].update(e.pk for e in session.exercises.all())
    old = proposal.assignment.links
    links = {
        kind: {t: pk for t, pk in old.get(kind, {}).items() if t in now[kind] and pk in pks[kind]}
        for kind in pks
    }
    for want, row, kind in found:
        if want.key in proposal.added:
            links[kind][proposal.added[want.key][1]] = row.pk
    return links


def _apply_one(
    outcome: Outcome,
    translation: Translation,
    *,
    template: ProgramTemplate,
    coach: Any,
    latest: TemplateVersion,
    seen: int,
) -> None:
    """One athlete's apply and their assignment's step, together (the caller's transaction)."""
    assignment = outcome.proposal.assignment
    if translation.calls:
        batch = apply_batch(
            athlete=assignment.program.athlete,
            program=assignment.program,
            user=coach,
            calls=[c.to_dict() for c in translation.calls],
            version=seen,
            via=RevisionVia.ADMIN,
            source=source(template),
        )
        outcome.items, problems = call_items(translation, batch)
        if batch.stale or not batch.success:
            outcome.ok, outcome.stale = False, batch.stale
            outcome.problems = [p.message for p in problems]
            return
        outcome.summary = batch.preview.get("summary", "")
    elif program_version(program_id=assignment.program_id) != seen:
        outcome.ok, outcome.stale = False, True
        return
    assignment.links = _relink(outcome.proposal, latest)
    assignment.version = latest
    assignment.save(update_fields=["links", "version", "updated_at"])
    outcome.applied = True


def apply(
    *,
    template: ProgramTemplate,
    coach: Any,
    version_number: int,
    chosen: dict[int, tuple[int, set[str]]],
) -> tuple[list[Outcome], str]:
    """Apply the template's newest version to the chosen assignments (``{assignment id:
    (their program's version as seen, conflicts to overwrite)}``); one change set each."""
    latest = record_version(template)
    if latest.number != version_number:
        return [], (
            "The template changed since this page was opened, so nothing was applied. Here are "
            "the changes as they are now."
        )
    assignments = list(behind(template, latest).filter(pk__in=list(chosen)))
    overwrite = {pk: chosen[pk][1] for pk in chosen}
    outcomes = []
    for proposal, translation in proposals(template, assignments, latest, overwrite):
        outcome = Outcome(proposal=proposal, calls=len(translation.calls))
        outcomes.append(outcome)
        if translation.problems:
            outcome.ok = False
            outcome.problems = [p.message for p in translation.problems]
            continue
        with transaction.atomic():
            _apply_one(
                outcome,
                translation,
                template=template,
                coach=coach,
                latest=latest,
                seen=chosen[proposal.assignment.pk][0],
            )
    return outcomes, ""
