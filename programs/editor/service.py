"""A save of the program editor, through the tool engine: the edited tree is translated into the
program family's tool calls (``translate``), previewed by the engine's dry run (the same
validation and before → after details as the chat's card, and the projected form on the
program's key dates: ``coach.engine.preview_calls``), then applied by the engine's one apply
(``coach.engine.apply_batch``, as the chat's lifecycle does): all or nothing in one transaction,
one change set of the journal holding one program revision by the coach (``via`` admin, source
"editor"), which the History page and its Undo show.

Both steps are bound to the version the page was loaded on. When the program changed since (a
second coach saved first, or the athlete applied a chat change), the save is refused with what
changed (the revisions since, in words) and nothing is written.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from coach import whatif as projection
from coach.engine import BatchResult, apply_batch, preview_calls
from coach.preview_card import batch_items, whatif_rows
from coach.tools.base import ToolContext
from coach.vocabulary import plural
from journal import services as journal

from ..history import describe, revision_lines
from ..models import Program, ProgramRevision, RevisionVia
from ..services import program_version
from .translate import Translation, translate
from .tree import Problem, TreeError, parse, program_tree

SOURCE = "editor"
MAX_CHANGED_LINES = 8  # per revision, in the refusal of a stale save


@dataclass
class EditorResult:
    """What a preview or an apply of the editor gives the page."""

    ok: bool = False
    applied: bool = False
    problems: list[Problem] = field(default_factory=list)
    items: list[dict[str, Any]] = field(default_factory=list)  # one per call, as on the chat card
    summary: str = ""
    warnings: list[str] = field(default_factory=list)
    whatif: list[dict[str, Any]] = field(default_factory=list)
    key_dates: list[str] = field(default_factory=list)  # where the form is projected, in words
    stale: bool = False  # refused: the program changed since the page was loaded
    since: list[dict[str, Any]] = field(default_factory=list)  # the revisions since, in words
    version: int = 0
    revision: ProgramRevision | None = None
    message: str = ""


def _version(data: Any) -> int:
    version = data.get("version") if isinstance(data, dict) else None
    if isinstance(version, bool) or not isinstance(version, int):
        raise TreeError("The page didn't say which version of the program it shows.")
    return version


def changes_since(program: Program, version: int) -> list[dict[str, Any]]:
    """The revisions written after ``version``, each described with its readable lines."""
    revisions = (
        ProgramRevision.objects.filter(program=program, program_version__gt=version)
        .select_related("actor")
        .order_by("number")
    )
    out = []
    for revision in revisions:
        lines = revision_lines(revision)
        more = len(lines) - MAX_CHANGED_LINES
        shown = lines[:MAX_CHANGED_LINES] + (
            [f"… and {plural(more, 'more line')}"] if more > 0 else []
        )
        out.append({"who": describe(revision), "summary": revision.summary, "lines": shown})
    return out


def _stale(program: Program, version: int, now: int) -> EditorResult:
    return EditorResult(
        stale=True,
        since=changes_since(program, version),
        version=now,
        message=(
            "The program changed since you opened the editor, so nothing was saved. Here is what "
            "changed; reload the editor to see it, then make your edits again."
        ),
    )


def _translate(program: Program, data: Any) -> tuple[Translation | None, list[Problem]]:
    weeks, problems = parse(data)
    if problems:
        return None, problems
    current = program_tree(program)
    sessions = {s.pk: s for w in current for s in w.sessions.all()}
    copies = {}
    for week in weeks:
        for session in week.children:
            if session.copy_of is not None and session.pk is None:
                if session.copy_of not in sessions:
                    raise TreeError("The page copied a session that is not in this program.")
                copies[session.key] = sessions[session.copy_of]
    translation = translate(current=current, weeks=weeks, copies=copies)
    return translation, translation.problems


def call_items(translation: Translation, batch: BatchResult) -> tuple[list[dict], list[Problem]]:
    """The card's items (label, before → after details, whether it can be applied) and the
    failed calls' errors in words, attached to the rows they are about."""
    items = batch_items(translation.calls, batch)
    problems = []
    for call, item in zip(translation.calls, items, strict=True):
        item["key"] = translation.keys[call.id]
        if not item["ok"]:
            problems.append(Problem(translation.keys[call.id], "", item["problem"]))
    return items, problems


def preview(*, program: Program, user: Any, data: Any) -> EditorResult:
    """The dry run of the edited page: nothing is written."""
    version = _version(data)
    now = program_version(program_id=program.pk)
    if now != version:
        return _stale(program, version, now)
    translation, problems = _translate(program, data)
    if problems or translation is None:
        return EditorResult(problems=problems, version=now, message="Some fields need a fix.")
    if not translation.calls:
        return EditorResult(version=now, message="Nothing has changed.")
    ctx = ToolContext(athlete=program.athlete, program=program, user=user)
    batch = preview_calls(ctx=ctx, calls=translation.calls)
    items, problems = call_items(translation, batch)
    return EditorResult(
        ok=batch.success,
        problems=problems,
        items=items,
        summary=batch.preview.get("summary", ""),
        warnings=batch.preview.get("warnings", []),
        whatif=whatif_rows(batch.preview.get("whatif", [])),
        key_dates=[f"{label} ({day.isoformat()})" for label, day in projection.key_dates(ctx)],
        version=now,
        message="" if batch.success else "Some changes can't be made; nothing will be saved.",
    )


def apply(*, program: Program, user: Any, data: Any) -> EditorResult:
    """Apply the edited page, all or nothing, bound to the version the page shows."""
    version = _version(data)
    now = program_version(program_id=program.pk)
    if now != version:
        return _stale(program, version, now)
    # Translated on the version the page shows; the apply below checks it again under the lock.
    translation, problems = _translate(program, data)
    if problems or translation is None:
        return EditorResult(problems=problems, version=now, message="Some fields need a fix.")
    if not translation.calls:
        return EditorResult(version=version, message="Nothing has changed.")
    batch = apply_batch(
        athlete=program.athlete,
        program=program,
        user=user,
        calls=[c.to_dict() for c in translation.calls],
        version=version,
        via=RevisionVia.ADMIN,
        source=SOURCE,
    )
    if batch.stale:
        return _stale(program, version, program_version(program_id=program.pk))
    items, problems = call_items(translation, batch)
    if not batch.success:
        return EditorResult(
            problems=problems,
            items=items,
            version=batch.program_version,
            message="Some changes can't be made; nothing was saved.",
        )
    revision = None
    if batch.change_set_id is not None:
        revision = next(iter(journal.parts(batch.change_set_id, ProgramRevision)), None)
    return EditorResult(
        ok=True,
        applied=True,
        items=items,
        summary=batch.preview.get("summary", ""),
        version=batch.program_version,
        revision=revision,
        message=f"Saved {batch.counted or plural(len(translation.calls), 'change')} as one change.",
    )
