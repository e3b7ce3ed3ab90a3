"""A conversation's timeline for the admin: its messages, the tool calls the model made (from the
audit log) and the decisions on its batches, merged in time order. Plain data; the template
renders it (and escapes every text)."""

from __future__ import annotations

import datetime
import json
from dataclasses import dataclass, field
from typing import Any

from ..models import BatchDecision, Conversation, Message, ToolCallRecord

# At the same instant a message comes before the calls it made, and those before decisions.
_ORDER = {"message": 0, "tool_call": 1, "decision": 2}


@dataclass(frozen=True)
class TimelineEntry:
    kind: str  # "message", "tool_call" or "decision"
    at: datetime.datetime
    pk: int
    title: str
    who: str
    text: str = ""
    status: str = ""
    details: list[tuple[str, Any]] = field(default_factory=list)
    admin_url_name: str = ""
    markdown: bool = False  # the coach's replies are shown as the chat shows them

    @property
    def sort_key(self) -> tuple[datetime.datetime, int, int]:
        return (self.at, _ORDER[self.kind], self.pk)


def _message_entry(message: Message, athlete: str) -> TimelineEntry:
    who = {
        Message.Role.USER: athlete,
        Message.Role.ASSISTANT: "the coach (model)",
        Message.Role.TOOL: "tool result",
        Message.Role.EVENT: "Spotter",
        Message.Role.COACH: f"the coach ({message.author.username})"
        if message.author
        else "the coach",
    }.get(message.role, message.role)
    details: list[tuple[str, Any]] = []
    if message.role == Message.Role.ASSISTANT and message.model:
        details.append(("model", f"{message.provider} / {message.model}"))
    if message.tool_call_id:
        details.append(("answers call", message.tool_call_id))
    if message.error_code:
        details.append(("error", message.error_code))
    return TimelineEntry(
        kind="message",
        at=message.created_at,
        pk=message.pk,
        title=message.get_role_display(),
        who=who,
        text=message.content,
        status=message.get_status_display(),
        details=details,
        admin_url_name="admin:chat_message_change",
        markdown=message.role == Message.Role.ASSISTANT,
    )


def _call_entry(record: ToolCallRecord) -> TimelineEntry:
    details: list[tuple[str, Any]] = [("call id", record.call_id), ("kind", record.kind)]
    if record.batch_id:
        details.append(("batch", record.batch_id))
    if record.applied_arguments is not None and record.applied_arguments != record.arguments:
        details.append(("applied as", record.applied_arguments))
    errors = [e.get("message", "") for e in (record.result or {}).get("errors", [])]
    if errors:
        details.append(("errors", " ".join(errors)))
    elif (record.result or {}).get("summary"):
        details.append(("result", record.result["summary"]))
    transitions = ", ".join(
        f"{t.get('status')} ({t.get('by') or 'system'})" for t in record.transitions
    )
    details.append(("transitions", transitions))
    return TimelineEntry(
        kind="tool_call",
        at=record.created_at,
        pk=record.pk,
        title=f"Tool call: {record.tool}",
        who=f"{record.provider} / {record.model}".strip(" /") or "the model",
        text=_compact(record.arguments),
        status=record.get_status_display(),
        details=details,
        admin_url_name="admin:chat_toolcallrecord_change",
    )


def _decision_entry(decision: BatchDecision) -> TimelineEntry:
    details: list[tuple[str, Any]] = [
        ("batch", f"{decision.batch_id} (revision {decision.batch_revision})"),
        ("calls", ", ".join(f"{c.get('id')} {c.get('name')}" for c in decision.calls) or "—"),
    ]
    for edit in decision.edits:
        if edit.get("removed"):
            details.append(("edit", f"removed {edit.get('call_id')} {edit.get('name')}"))
        else:
            details.append(
                (
                    "edit",
                    f"{edit.get('call_id')} {edit.get('field')}: "
                    f"{_compact(edit.get('before'))} → {_compact(edit.get('after'))}",
                )
            )
    return TimelineEntry(
        kind="decision",
        at=decision.created_at,
        pk=decision.pk,
        title=f"Decision: {decision.get_kind_display()}",
        who=decision.actor.username if decision.actor_id else "the system",
        text=decision.note,
        status=decision.kind,
        details=details,
        admin_url_name="admin:chat_batchdecision_change",
    )


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)


def conversation_timeline(*, conversation: Conversation) -> list[TimelineEntry]:
    """Every message, tool call and decision of ``conversation``, oldest first."""
    athlete = conversation.athlete.username
    entries = [
        _message_entry(m, athlete)
        for m in Message.objects.filter(conversation=conversation).select_related("author")
    ]
    entries += [_call_entry(r) for r in ToolCallRecord.objects.filter(conversation=conversation)]
    entries += [
        _decision_entry(d)
        for d in BatchDecision.objects.filter(batch__conversation=conversation).select_related(
            "actor"
        )
    ]
    return sorted(entries, key=lambda e: e.sort_key)
