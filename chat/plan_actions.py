"""Changes the athlete asks for with a button instead of words: **Move** a session (the calendar),
**Realign my plan** and **Not feeling 100 %** (the chat). Each becomes an ordinary proposal: the
calls (built deterministically: the reschedule tool, the plan's ``ADJUSTMENTS``, ``coach.plan``) go through
``chat.proposals.propose`` like a model's, so they are validated, previewed on the card, editable,
applied only by Apply Changes, and undoable. Nothing moves before Apply.

**How it reads in the conversation.** The click is written as the athlete's message, in words built
by Spotter from the structured request (what a person would have typed), followed by a coach
message that carries the calls (its provider is ``spotter``, its model the action's name, so the
audit log says the calls came from a button, not a model) and one tool answer per call. The model
reads that exchange like any other; the conversation stays valid for every provider. No model is
called for the click itself; the decision that follows (Apply, Cancel, Undo) is acknowledged as
usual.

**The offer.** ``plan_offer`` says how many sessions are missed (the adjustments' rule) and
whether to offer Realign (from 3); Not feeling 100 % is always offered, 3 to 14 days. It is part
of the page and of every reply and decision that may change it (``chat.views.common.regions``),
never a request of its own, and it is kept in Django's cache under what it depends on: the plan's
``version_key`` (a logged or missed workout, a change, each bumps it) and the athlete's today. That
day can only change on a quarter of an hour of UTC (every time zone's offset is a multiple of 15
minutes), so the key holds the quarter-hour instead, and a page reads the offer with no query at
all; it is counted again at most four times an hour. As for the week panel (``chat.panel``)
nothing is invalidated by hand, so a per-process cache is as correct as a shared one.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from coach.plan import adjustments, plan
from coach.render import quote
from coach.toolcalls import ToolCall

from . import proposals, refusals
from .models import Conversation, Message
from .storable import strip_nul

SOURCE = "spotter"
STRATEGIES = ("swap", "push")
DEFAULT_LIGHTER_DAYS = 7
REPLIES = ["What does this change?"]
OFFER_TTL_SECONDS = 15 * 60  # a key can't outlive its quarter-hour anyway


@dataclass
class ActionResult:
    reply: Message
    proposal: proposals.Proposal

    @property
    def refused(self) -> bool:
        return self.proposal.refused


def today_of(conversation: Conversation) -> datetime.date:
    return adjustments().today(conversation.athlete)


def offer_key(conversation: Conversation, now: datetime.datetime) -> str:
    """The plan's state and the quarter-hour of UTC ``now`` falls in (see the module docstring)."""
    quarter = f"{now.astimezone(datetime.UTC):%Y-%m-%dT%H}:{now.minute // 15}"
    return f"chat:plan-offer:{plan().version_key(conversation.program)}:{quarter}"


def plan_offer(conversation: Conversation) -> dict:
    """What the chat offers under the messages when nothing is pending: from the cache, or
    counted once per version of the plan and quarter-hour (see the module docstring)."""
    adjust = adjustments()
    key = offer_key(conversation, timezone.now())
    counted = cache.get(key)
    if counted is None:
        today = today_of(conversation)
        summary = adjust.missed_summary(program_id=conversation.program_id, today=today)
        counted = (summary.count, summary.offer_realign)
        cache.set(key, counted, OFFER_TTL_SECONDS)
    missed, realign = counted
    return {
        "missed": missed,
        "realign": realign,
        "lighter_choices": tuple(range(adjust.MIN_DAYS, adjust.MAX_DAYS + 1)),
        "lighter_default": DEFAULT_LIGHTER_DAYS,
    }


def propose_action(
    *,
    conversation: Conversation,
    request_text: str,
    reply_text: str,
    calls: list[ToolCall],
    action: str,
) -> ActionResult:
    """Write the athlete's request and the coach message carrying ``calls``, and propose them
    (queued on the open batch, or all refused with the reason as the coach's reply)."""
    with transaction.atomic():
        # The agent's proposer takes the same lock: one proposer at a time per conversation.
        Conversation.objects.select_for_update(no_key=True).filter(pk=conversation.pk).first()
        now = timezone.now()
        asked = Message.objects.create(
            conversation=conversation,
            role=Message.Role.USER,
            content=strip_nul(request_text),
            status=Message.Status.COMPLETE,
        )
        reply = Message.objects.create(
            conversation=conversation,
            role=Message.Role.ASSISTANT,
            status=Message.Status.COMPLETE,
            reply_to=asked,
            provider=SOURCE,
            model=action,
            started_at=now,
        )
        proposal = proposals.propose(
            conversation=conversation,
            message=reply,
            calls=calls,
            writes={c.id for c in calls},
            usage={"provider": SOURCE, "model": action},
        )
        if proposal.refused:
            content, replies = refusals.refusal_message(
                writes=proposal.calls, errors=proposal.errors
            )
            reply.error_code = "refused"
        else:
            content, replies = reply_text, REPLIES
        reply.content = strip_nul(content)
        reply.suggested_replies = replies
        reply.tool_calls = [c.to_dict() for c in proposal.calls]
        reply.batch = proposal.batch
        reply.finished_at = timezone.now()
        reply.save()
        Message.objects.bulk_create(
            Message(
                conversation=conversation,
                role=Message.Role.TOOL,
                content=strip_nul(proposal.answers[call.id][0]),
                tool_call_id=call.id,
                is_error=proposal.answers[call.id][1],
                reply_to=reply,
                batch=proposal.batch,
                status=Message.Status.COMPLETE,
            )
            for call in proposal.calls
        )
        Conversation.objects.filter(pk=conversation.pk).update(updated_at=timezone.now())
    return ActionResult(reply=reply, proposal=proposal)


def move_session(
    *, conversation: Conversation, session: Any, new_date: datetime.date, strategy: str
) -> ActionResult:
    """Propose moving a session of the conversation's program (the caller checked that it is) to
    ``new_date``, with the plan's adjustments' call (``move_calls``)."""
    if strategy not in STRATEGIES:
        strategy = "swap"
    old = session.scheduled_date.isoformat() if session.scheduled_date else "no date"
    where = f"{quote(session.name)} (week {session.week.position}, session {session.position})"
    request = f"Move {where} from {old} to {new_date.isoformat()}"
    if strategy == "push":
        request += ", and every later session by the same days"
    calls = adjustments().move_calls(session=session, new_date=new_date, strategy=strategy)
    reply = (
        f"Here's {where} on {new_date.isoformat()}. Check the date before → after on the card; "
        "nothing moves until you press Apply Changes."
    )
    return propose_action(
        conversation=conversation,
        request_text=request + ".",
        reply_text=reply,
        calls=calls,
        action="calendar-move",
    )


def realign(*, conversation: Conversation) -> ActionResult:
    """Propose the realignment; ``coach.plan.PlanAdjustError`` when nothing was missed."""
    today = today_of(conversation)
    adjust = adjustments()
    missed = adjust.missed_sessions(program_id=conversation.program_id, today=today)
    calls = adjust.realign_calls(program_id=conversation.program_id, today=today)
    count = len(missed)
    reply = (
        f"You've missed {count} session{'s' if count != 1 else ''} since your last workout. "
        f"Here's your plan restarting today ({today.isoformat()}): every date is on the card, "
        "before → after. Nothing moves until you press Apply Changes."
    )
    return propose_action(
        conversation=conversation,
        request_text="Realign my plan.",
        reply_text=reply,
        calls=calls,
        action="realign",
    )


def lighter(*, conversation: Conversation, days: object) -> ActionResult:
    """Propose lighter days; ``coach.plan.PlanAdjustError`` (naming 3 to 14) on a bad length or
    when nothing in those days can be made lighter."""
    today = today_of(conversation)
    calls = adjustments().lighter_calls(program_id=conversation.program_id, today=today, days=days)
    reply = (
        f"Take it easier for {days} days: fewer sets, lower loads and shorter cardio, one change "
        "per exercise or cardio block on the card. Edit or remove any of them, then Apply Changes."
    )
    return propose_action(
        conversation=conversation,
        request_text=f"I'm not feeling 100%: make the next {days} days lighter.",
        reply_text=reply,
        calls=calls,
        action="lighter",
    )
