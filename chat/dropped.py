"""What a turn's request leaves out, told from rows (``chat.budget``'s fourth part): how many
earlier messages are not shown, the batches proposed in them, the decisions reported and the
latest few, as a ``<spotter_event kind="earlier">`` block that opens the first exchange kept.
Rendered from ``Message``, ``PendingToolBatch`` and ``BatchDecision`` rows, never by a model."""

from __future__ import annotations

import datetime

from django.db.models import Count
from django.utils import timezone

from .models import BatchDecision, Conversation, Message, PendingToolBatch

LATEST_DECISIONS = 5


def dropped_summary(*, conversation: Conversation, first_kept: Message) -> str:
    """What the messages before ``first_kept`` held, from rows: a ``<spotter_event>`` block."""
    earlier = Message.objects.filter(conversation=conversation, pk__lt=first_kept.pk)
    count = earlier.exclude(role=Message.Role.TOOL).count()
    since = earlier.order_by("pk").values_list("created_at", flat=True).first()
    batches = PendingToolBatch.objects.filter(
        conversation=conversation, messages__pk__lt=first_kept.pk
    ).distinct()
    decisions = BatchDecision.objects.filter(
        events__conversation=conversation, events__pk__lt=first_kept.pk
    )
    kinds = dict(
        decisions.order_by().values_list("kind").annotate(n=Count("pk")).values_list("kind", "n")
    )
    when = f" (from {since.date().isoformat()})" if isinstance(since, datetime.datetime) else ""
    lines = [
        f"The {count:,} earlier message{'s' if count != 1 else ''}{when} "
        f"{'are' if count != 1 else 'is'} not shown: the conversation is longer than the "
        "model's context window."
    ]
    decided = ", ".join(
        f"{kinds[kind]} {BatchDecision.Kind(kind).label.lower()}"
        for kind in BatchDecision.Kind.values
        if kinds.get(kind)
    )
    lines.append(
        f"Batches of changes proposed in them: {batches.count()}. "
        + (f"Decisions: {decided}." if decided else "No decision was made in them.")
    )
    latest = list(decisions.order_by("-created_at", "-pk")[:LATEST_DECISIONS])
    for decision in reversed(latest):
        names = ", ".join(str(call.get("name", "")) for call in decision.calls[:4])
        more = f" and {len(decision.calls) - 4} more" if len(decision.calls) > 4 else ""
        lines.append(
            f"- {timezone.localtime(decision.created_at).date().isoformat()} "
            f"{decision.get_kind_display().lower()}: {names}{more}"
        )
    lines.append("The program summary above is current; call the read tools for anything else.")
    body = "\n".join(lines)
    return f'<spotter_event kind="earlier">\n{body}\n</spotter_event>'
