"""The chat's services: sending a message, and the two clicks that decide a batch.

* ``message_send`` saves the athlete's message, then a "coach is thinking" placeholder, and queues
  the agent on commit. It never applies anything, whatever the text says.
* ``batch_apply`` is the only path that writes a batch's calls to the program. It locks the batch
  row, then the program row (always in that order), so a double click, two tabs or a retried
  request applies the batch exactly once; the second request finds it decided.
* ``batch_cancel`` closes the batch without writing anything.

Both clicks name the revision the athlete saw; a batch that changed since (new proposals joined,
or it was re-previewed) is not decided blind. A program that changed since the preview (a coach
edited it) makes the batch STALE: it is re-previewed on the current program and shown again.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any, Literal

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Prefetch
from django.utils import timezone

from coach.context import current_week, quote, session_cardio
from coach.toolcalls import ToolCall
from programs.models import Exercise, Program, Session, Week
from programs.services import program_lock

from .models import Conversation, Message, PendingToolBatch

MAX_MESSAGE_CHARS = 4000


# --- conversations and messages ------------------------------------------------------------------


def conversation_for_athlete(*, athlete) -> Conversation | None:
    """The athlete's conversation about their newest program (created on first use); None when
    they have no program."""
    if athlete is None or not getattr(athlete, "is_authenticated", False):
        return None
    program = Program.objects.filter(athlete=athlete).order_by("-created_at", "-pk").first()
    if program is None:
        return None
    conversation = (
        Conversation.objects.filter(athlete=athlete, program=program).order_by("-pk").first()
    )
    if conversation is None:
        conversation = Conversation.objects.create(athlete=athlete, program=program)
    return conversation


def _queue_agent(placeholder: Message) -> None:
    from coach.tasks import run_agent

    message_id = placeholder.pk
    transaction.on_commit(lambda: run_agent.delay(message_id))


def _placeholder(*, conversation: Conversation, reply_to: Message) -> Message:
    return Message.objects.create(
        conversation=conversation,
        role=Message.Role.ASSISTANT,
        status=Message.Status.PENDING,
        reply_to=reply_to,
    )


def message_send(*, conversation: Conversation, text: str) -> tuple[Message, Message]:
    """Save the athlete's message and a placeholder for the reply; queue the agent on commit.

    Raises ``ValidationError`` (nothing saved) unless the stripped text has 1 to 4000 characters."""
    text = (text or "").replace("\x00", "").strip()  # PostgreSQL can't store NUL characters
    if not text:
        raise ValidationError("Type a message first.", code="empty")
    if len(text) > MAX_MESSAGE_CHARS:
        raise ValidationError(
            f"Messages can be at most {MAX_MESSAGE_CHARS} characters (this one has {len(text)}).",
            code="too_long",
        )
    with transaction.atomic():
        user_message = Message.objects.create(
            conversation=conversation,
            role=Message.Role.USER,
            content=text,
            status=Message.Status.COMPLETE,
        )
        placeholder = _placeholder(conversation=conversation, reply_to=user_message)
        Conversation.objects.filter(pk=conversation.pk).update(updated_at=timezone.now())
        _queue_agent(placeholder)
    return user_message, placeholder


def open_batch(*, conversation: Conversation) -> PendingToolBatch | None:
    """The batch waiting for Apply Changes or Cancel, if any (while it is open the UI hides the
    suggested replies)."""
    return (
        PendingToolBatch.objects.filter(
            conversation=conversation, status__in=PendingToolBatch.OPEN_STATUSES
        )
        .order_by("-pk")
        .first()
    )


# --- deciding a batch ----------------------------------------------------------------------------


@dataclass
class Decision:
    batch: PendingToolBatch
    outcome: Literal[
        "applied", "cancelled", "failed", "stale", "already_decided", "revision_mismatch"
    ]
    followup: Message | None = None


def _lock_batch(*, batch_id: int, user) -> PendingToolBatch:
    batch = (
        PendingToolBatch.objects.select_for_update(of=("self",))
        .select_related("conversation")
        .get(pk=batch_id)
    )
    if user is None or batch.conversation.athlete_id != getattr(user, "pk", None):
        raise PermissionDenied("Only the athlete can decide on these changes.")
    return batch


def _calls(batch: PendingToolBatch) -> list[ToolCall]:
    return [ToolCall.from_raw(raw) for raw in batch.calls]


def _event(
    *, batch: PendingToolBatch, content: str, llm_content: str, acknowledge: bool
) -> Message | None:
    """Record the click for the model (a user turn) and, when asked, queue its acknowledgment."""
    event = Message.objects.create(
        conversation=batch.conversation,
        role=Message.Role.EVENT,
        content=content,
        llm_content=llm_content,
        batch=batch,
        status=Message.Status.COMPLETE,
    )
    Conversation.objects.filter(pk=batch.conversation_id).update(updated_at=timezone.now())
    if not acknowledge:
        return None
    followup = _placeholder(conversation=batch.conversation, reply_to=event)
    _queue_agent(followup)
    return followup


def _result_line(index: int, result: dict[str, Any]) -> str:
    head = f"{result.get('tool_call_id', f'call {index}')} ({result.get('name', '')})"
    if result.get("success"):
        return f"{head}: Success — {quote(result.get('summary', ''), limit=300)}"
    messages = " ".join(e.get("message", "") for e in result.get("errors", []))
    return f"{head}: Error — {quote(messages or result.get('summary', ''), limit=300)}"


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _stale(batch: PendingToolBatch, program: Program) -> Decision:
    from coach import engine
    from coach.agent import describe_failure

    calls = _calls(batch)
    result = engine.preview_calls(program=program, calls=calls)
    batch.preview = result.preview
    batch.results = [r.to_dict() for r in result.results]
    batch.program_version = result.program_version
    batch.status = PendingToolBatch.BatchStatus.STALE
    batch.revision += 1
    problem = describe_failure(calls, result.results) if not result.success else ""
    batch.error_message = (
        "Your program changed since these changes were previewed, so nothing was applied. "
        "Check the updated preview, then click Apply Changes again."
        + (f" {problem}" if problem else "")
    )
    batch.save()
    return Decision(batch=batch, outcome="stale")


def batch_apply(*, batch_id: int, user, revision: int) -> Decision:
    """The Apply Changes click: run every call of the batch in order, all or nothing, once."""
    from coach import engine
    from coach.agent import describe_failure

    with transaction.atomic():
        batch = _lock_batch(batch_id=batch_id, user=user)
        if not batch.is_open:
            return Decision(batch=batch, outcome="already_decided")
        if revision != batch.revision:
            return Decision(batch=batch, outcome="revision_mismatch")
        program = program_lock(program_id=batch.conversation.program_id)
        if program.version != batch.program_version:
            return _stale(batch, program)
        calls = _calls(batch)
        result = engine.apply_calls(
            program=program, calls=calls, expected_version=batch.program_version
        )
        batch.results = [r.to_dict() for r in result.results]
        if not result.success and any(e.code == "STALE" for r in result.results for e in r.errors):
            return _stale(batch, program)
        batch.decided_by = user
        batch.decided_at = timezone.now()
        if result.success:
            batch.status = PendingToolBatch.BatchStatus.APPLIED
            batch.error_message = ""
            batch.program_version = result.program_version
            batch.save()
            lines = "; ".join(_result_line(i, r) for i, r in enumerate(batch.results, start=1))
            followup = _event(
                batch=batch,
                content=f"You applied {_plural(len(calls), 'change')}.",
                llm_content=f"The athlete clicked Apply Changes. Results: {lines}",
                acknowledge=True,
            )
            return Decision(batch=batch, outcome="applied", followup=followup)
        batch.status = PendingToolBatch.BatchStatus.FAILED
        batch.error_message = (
            describe_failure(calls, result.results) + " Nothing was changed."
        ).strip()
        batch.save()
        lines = "; ".join(_result_line(i, r) for i, r in enumerate(batch.results, start=1))
        _event(
            batch=batch,
            content=f"Applying the changes failed: {batch.error_message}",
            llm_content=(
                "The athlete clicked Apply Changes, but it failed, so nothing was changed and the "
                f"changes are still pending. Results: {lines}"
            ),
            acknowledge=False,
        )
        return Decision(batch=batch, outcome="failed")


def batch_cancel(*, batch_id: int, user, revision: int) -> Decision:
    """The Cancel click: discard every pending call and tell the model."""
    with transaction.atomic():
        batch = _lock_batch(batch_id=batch_id, user=user)
        if not batch.is_open:
            return Decision(batch=batch, outcome="already_decided")
        if revision != batch.revision:
            return Decision(batch=batch, outcome="revision_mismatch")
        batch.status = PendingToolBatch.BatchStatus.CANCELLED
        batch.decided_by = user
        batch.decided_at = timezone.now()
        batch.save()
        followup = _event(
            batch=batch,
            content="You cancelled the proposed changes.",
            llm_content="The athlete clicked Cancel. Nothing was changed.",
            acknowledge=True,
        )
        return Decision(batch=batch, outcome="cancelled", followup=followup)


# --- the program panel ---------------------------------------------------------------------------


def _exercise_view(exercise: Exercise, week: Week, session: Session) -> dict[str, Any]:
    return {
        "number": exercise.position,
        "ref": f"week-{week.position}-session-{session.position}-exercise-{exercise.position}",
        "name": exercise.name,
        "group_label": exercise.group_label,
        "warmup_sets": exercise.warmup_sets,
        "working_sets": exercise.working_sets,
        "reps": exercise.reps,
        "target_load": exercise.target_load,
        "rest_seconds": exercise.rest_seconds,
        "notes": exercise.notes,
        "skipped": exercise.skipped,
        "sets_text": f"{exercise.working_sets}×{exercise.reps}"
        + (f" @ {exercise.target_load}" if exercise.target_load else ""),
    }


def program_week_view(
    *, program: Program, today: datetime.date | None = None, week_number: int | None = None
) -> dict[str, Any]:
    """The program panel's read model: the current week (the week containing ``today``, else the
    nearest) or week ``week_number``, with its sessions, exercises, cardio and position refs.
    Three queries whatever the program's size."""
    today = today or timezone.localdate()
    weeks = list(Week.objects.filter(program=program).order_by("position"))
    week = None
    if week_number is not None:
        week = next((w for w in weeks if w.position == week_number), None)
    if week is None:
        week = current_week(weeks, today)
    view: dict[str, Any] = {
        "program": {
            "id": program.pk,
            "name": program.name,
            "start_date": program.start_date,
            "version": program.version,
            "week_count": len(weeks),
        },
        "today": today,
        "week": None,
        "is_current_week": False,
        "previous_week_number": None,
        "next_week_number": None,
        "sessions": [],
    }
    if week is None:
        return view
    view["week"] = {
        "number": week.position,
        "ref": f"week-{week.position}",
        "phase": week.phase,
        "start_date": week.start_date,
        "end_date": week.end_date,
        "description": week.description,
    }
    view["is_current_week"] = week.start_date <= today <= week.end_date
    view["previous_week_number"] = week.position - 1 if week.position > 1 else None
    view["next_week_number"] = week.position + 1 if week.position < len(weeks) else None
    sessions = (
        Session.objects.filter(week=week)
        .select_related("cardio")
        .prefetch_related(Prefetch("exercises", queryset=Exercise.objects.order_by("position")))
        .order_by("position")
    )
    for session in sessions:
        cardio = session_cardio(session)
        exercises = [_exercise_view(e, week, session) for e in session.exercises.all()]
        view["sessions"].append(
            {
                "number": session.position,
                "ref": f"week-{week.position}-session-{session.position}",
                "name": session.name,
                "scheduled_date": session.scheduled_date,
                "day_of_week": session.day_of_week,
                "is_today": session.scheduled_date == today,
                "completed": session.completed,
                "notes": session.notes,
                "exercises": exercises,
                "cardio": None
                if cardio is None
                else {
                    "type": cardio.type,
                    "type_label": cardio.get_type_display(),
                    "duration": cardio.duration,
                    "modality": cardio.modality,
                    "instructions": cardio.instructions,
                    "completed": cardio.completed,
                },
                "is_rest_day": not exercises and cardio is None,
            }
        )
    return view
