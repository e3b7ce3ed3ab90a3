"""The token budget of one turn: what goes to the model always fits its context window.

Every model call of a turn gets ``LLM_CONTEXT_TOKENS`` minus the reply's ``LLM_MAX_TOKENS`` and a
safety margin (2 %, at least 256 tokens), and fills it in this order:

1. **The fixed part**: the tool schemas and the system prompt (rules, the program summary, what is
   pending). The schemas are those of the program tools, ``use_tools`` and the families loaded
   for the call (``chat.toolsets``: asked for in this turn, or in use in the last replies); every
   other family is one line of the prompt. The summary shows as much of the program as keeps this
   part within 70 % of the budget (the plan's summary levels, ``coach.plan``: full, current,
   brief, outline). When even the outline leaves too little room (a small window, 8k), the
   families in use are left out, then only those this turn asked for go with the program tools.
   A family loaded in the middle of a turn (``fit``) chooses again.
2. **This turn's read rounds** (``Message.steps`` so far). If they don't fit, the results of the
   older rounds become a one-line stub, then the newest ones are cut with a marker.
3. **The most recent exchanges that fit**, newest first. An exchange (``chat.prompt.Exchange``) is
   a user turn and everything the model said after it; it is kept or dropped whole, so a tool call
   never loses its result and the conversation stays valid for every provider. Read results older
   than the last ``FULL_READS_EXCHANGES`` exchanges become a one-line stub (the data may have
   changed since; the model can call the tool again). The latest exchange, what the athlete just
   said, is always kept (cut with a marker if it alone is too long).
4. **A summary of what was dropped** (``chat.dropped``), from rows, not by a model: how many
   messages, the batches proposed in them, the decisions reported and the latest few, opening the
   first exchange kept; computed only when a call fitted without it drops something.

Tokens are counted with the model's own vocabulary for OpenAI's known models and with a safe
estimate otherwise (``coach.llm.tokens.counter_for``); the final request is counted whole and
trimmed again while it is over. Messages are read newest first, a page at a time, until the budget
is full: a conversation of 10,000 messages costs what one of 1,000 does.

``bound_reply`` cuts a model reply to ``CHAT_MAX_REPLY_CHARS`` characters with a visible marker,
before it is stored, shown or sent back.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.utils import timezone

from coach.llm.base import Deadline, LLMResponse, Provider, Turn, World
from coach.llm.tokens import TokenCounter, counter_for
from coach.plan import plan
from coach.registry import get_tool
from coach.tools.base import ToolContext

from . import proposals, toolsets
from .dropped import dropped_summary
from .models import Conversation, Message, PendingToolBatch
from .prompt import Exchange, build_system_prompt, exchanges_from, pending_of

MIN_CONTEXT_TOKENS = 8000
MIN_PROMPT_TOKENS = 4000
FIXED_SHARE = 0.7
FULL_READS_EXCHANGES = 2
PAGE = 200
# What the exchanges read of a message (``chat.prompt.exchanges_from``), and of a tool's answer.
HISTORY_FIELDS = ["role", "content", "llm_content", "status", "tool_calls", "tool_call_extras"]
HISTORY_FIELDS += ["steps", "decision"]
ANSWER_FIELDS = ["reply_to", "tool_call_id", "content", "is_error"]
SUMMARY_SLACK = 16  # the summary's numbers differ a little from one cut to another
STUB = "[{name} result from an earlier turn, left out to save space: call {name} again for it.]"
CUT = "\n[… cut here to fit the model's context window]"
REPLY_CUT = (
    "\n\n[… the reply was cut here: it had {total:,} characters, and Spotter keeps at most "
    "{limit:,}.]"
)


# --- limits --------------------------------------------------------------------------------------


def prompt_budget() -> int:
    """The tokens one request may send: the context window minus the reply and the margin.
    Raises ``ImproperlyConfigured`` naming the bounds when the settings leave too little."""
    context = int(settings.LLM_CONTEXT_TOKENS)
    reply = int(settings.LLM_MAX_TOKENS)
    if context < MIN_CONTEXT_TOKENS:
        raise ImproperlyConfigured(
            f"LLM_CONTEXT_TOKENS is {context:,}; it must be at least {MIN_CONTEXT_TOKENS:,}."
        )
    budget = context - reply - max(256, context // 50)
    if budget < MIN_PROMPT_TOKENS:
        raise ImproperlyConfigured(
            f"LLM_CONTEXT_TOKENS ({context:,}) minus LLM_MAX_TOKENS ({reply:,}) and the margin "
            f"leaves {budget:,} tokens for the prompt; it needs at least {MIN_PROMPT_TOKENS:,}."
        )
    return budget


def bound_reply(text: str, *, limit: int | None = None) -> str:
    """``text`` cut to ``limit`` characters (``CHAT_MAX_REPLY_CHARS``) with a visible marker."""
    limit = int(settings.CHAT_MAX_REPLY_CHARS if limit is None else limit)
    if not text or len(text) <= limit:
        return text
    return text[:limit] + REPLY_CUT.format(total=len(text), limit=limit)


def provider_counter(provider: Provider) -> TokenCounter:
    """The provider's counter, with a memo of its own (for one turn)."""
    counter = counter_for(
        provider=getattr(provider, "name", ""),
        model=getattr(provider, "model", "") or "",
        tool_format=getattr(provider, "tool_format", "native"),
    )
    return replace(counter, memo={})


# --- stubs and cuts ------------------------------------------------------------------------------


def stub_reads(turns: list[Turn]) -> list[Turn]:
    """``turns`` with each read tool's result replaced by a one-line stub."""
    names: dict[str, str] = {}
    out = []
    for turn in turns:
        names.update({call.id: call.name for call in turn.tool_calls})
        name = names.get(turn.tool_call_id or "", "")
        spec = get_tool(name) if turn.role == "tool" else None
        stub = STUB.format(name=name)
        if spec is not None and spec.kind == "read" and len(turn.content) > len(stub):
            turn = replace(turn, content=stub)
        out.append(turn)
    return out


def cut_turns(turns: list[Turn], *, ratio: float) -> list[Turn]:
    """Every turn's text cut to ``ratio`` of its length (a marker says so)."""
    out = []
    for turn in turns:
        keep = int(len(turn.content) * ratio)
        if len(turn.content) > len(CUT) and keep < len(turn.content):
            turn = replace(turn, content=turn.content[:keep] + CUT)
        out.append(turn)
    return out


# --- one turn's request --------------------------------------------------------------------------


@dataclass
class TurnRequest:
    """The request of each model call of one turn (see the module docstring)."""

    conversation: Conversation
    provider: Provider
    counter: TokenCounter
    budget: int
    batch: PendingToolBatch | None
    today: datetime.date | None
    in_use: list[str] = field(default_factory=list)
    system: str = ""
    tools: list[dict[str, Any]] = field(default_factory=list)
    fixed: int = 0
    detail: str = ""
    families: list[str] = field(default_factory=list)  # loaded for the next call
    asked: list[str] = field(default_factory=list)  # asked for in this turn so far
    loaded: list[str] = field(default_factory=list)  # loaded for any call of the turn
    exchanges: list[Exchange] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)
    complete_history: bool = True
    summaries: dict[int, tuple[str, int]] = field(default_factory=dict)
    program_texts: dict[str, str] = field(default_factory=dict)
    last_prompt_tokens: int = 0
    dropped_exchanges: int = 0
    world: World | None = None  # what a provider that ``reads_world`` reads, for the whole turn

    @classmethod
    def start(
        cls,
        *,
        conversation: Conversation,
        before: Message | None,
        provider: Provider,
        today: datetime.date | None = None,
    ) -> TurnRequest:
        request = cls(
            conversation=conversation,
            provider=provider,
            counter=provider_counter(provider),
            budget=prompt_budget(),
            batch=proposals.open_batch(conversation=conversation),
            today=today,
        )
        newest_first = request._history(before)
        page = list(newest_first[:PAGE])  # the newest page tells the families in use too
        request.in_use = toolsets.families_in_use(
            conversation=conversation, before=before, newest=page, complete=len(page) < PAGE
        )
        request._choose()
        request._load(newest_first, page)
        return request

    # --- the fixed part ---

    def _system(self, detail: str, families: list[str]) -> str:
        if detail not in self.program_texts:  # each summary level is rendered once a turn
            self.program_texts[detail] = plan().summary(
                program=self.conversation.program,
                today=self.today or timezone.localdate(),
                detail=detail,
            )
        return build_system_prompt(
            program=self.conversation.program,
            athlete=self.conversation.athlete,
            batch=self.batch,
            today=self.today,
            detail=detail,
            families=families,
            summary=self.program_texts[detail],
        )

    def _choose(self) -> None:
        """The loaded families, schemas and summary level of the next call: the richest tier
        (``toolsets.tiers``) whose fixed part fits ``FIXED_SHARE`` of the budget at some level,
        else the poorest tier at the outline."""
        for families in toolsets.tiers(in_use=self.in_use, asked=self.asked):
            tools = toolsets.definitions(families)
            for detail in plan().SUMMARY_DETAILS:
                system = self._system(detail, families)
                fixed = self.counter.request(system=system, turns=[], tools=tools)
                if fixed <= FIXED_SHARE * self.budget:
                    break
            if fixed <= FIXED_SHARE * self.budget:
                break
        self.system, self.tools, self.fixed, self.detail = system, tools, fixed, detail
        self.families = families
        self.loaded = toolsets.ordered([*self.loaded, *families])

    # --- reading the history, newest first ---

    def _history(self, before: Message | None) -> Any:
        """The messages before ``before``, newest first, with the fields the exchanges read."""
        newest_first = (
            Message.objects.filter(conversation=self.conversation)
            .exclude(role=Message.Role.TOOL)
            .select_related("decision")
            .only(*HISTORY_FIELDS)
            .order_by("-pk")
        )
        return newest_first if before is None else newest_first.filter(pk__lt=before.pk)

    def _load(self, newest_first: Any, page: list[Message]) -> None:
        """Read pages of messages, newest first (``page``, the newest, is read), until the
        exchanges read fill the budget. Each page is turned into exchanges once; its oldest
        exchange may go on in the page before, so its messages wait for that page (``partial``)."""
        exchanges: list[Exchange] = []  # newest first while reading
        sizes: list[int] = []
        partial: list[Message] = []
        answers: dict[tuple[int | None, str], Message] = {}
        room, total = self.budget - self.fixed, 0
        while True:
            exhausted = len(page) < PAGE
            cursor = page[-1].pk if page else None
            page.reverse()
            asked = [m.pk for m in page if m.role == Message.Role.ASSISTANT and m.tool_calls]
            if asked:
                tool = Message.objects.filter(role=Message.Role.TOOL, reply_to__in=asked)
                for answer in tool.only(*ANSWER_FIELDS):
                    answers[(answer.reply_to_id, answer.tool_call_id)] = answer
            messages = page + partial
            found = exchanges_from(messages, answers)
            partial = []
            if not exhausted:  # the oldest exchange found may go on in the page before
                keep_from = found[1].start.pk if len(found) > 1 else None
                partial = [m for m in messages if keep_from is None or m.pk < keep_from]
                found = found[1:]
            for exchange in reversed(found):
                if len(exchanges) >= FULL_READS_EXCHANGES:
                    exchange.turns = stub_reads(exchange.turns)
                exchanges.append(exchange)
                sizes.append(self.counter.turns(exchange.turns))
                total += sizes[-1]
            if exhausted or total >= room:
                break
            page = list(newest_first.filter(pk__lt=cursor)[:PAGE])
        # Collected newest first; kept oldest first, as they are sent.
        self.exchanges, self.sizes = exchanges[::-1], sizes[::-1]
        self.complete_history = exhausted

    # --- fitting one call ---

    def _summary(self, first_kept: Message) -> tuple[str, int]:
        if first_kept.pk not in self.summaries:
            text = dropped_summary(conversation=self.conversation, first_kept=first_kept)
            self.summaries[first_kept.pk] = (text, self.counter.turns([Turn("user", text)]))
        return self.summaries[first_kept.pk]

    def _fit_steps(self, steps: list[Turn], room: int) -> list[Turn]:
        if not steps or self.counter.turns(steps) <= room:
            return steps
        last = max(i for i, t in enumerate(steps) if t.role == "assistant")
        steps = stub_reads(steps[:last]) + steps[last:]
        size = self.counter.turns(steps)
        if size > room:
            steps = steps[:last] + cut_turns(steps[last:], ratio=max(0.0, room / size * 0.9))
        return steps

    def fit(self, steps: list[Turn] | None = None) -> list[Turn]:
        """The turns of the next call: what fits of the history, then ``steps`` (this turn's
        read rounds so far)."""
        steps = list(steps or [])
        asked = toolsets.families_called(call for turn in steps for call in turn.tool_calls)
        if asked != self.asked:  # this turn's read rounds loaded a family
            self.asked = asked
            self._choose()
        if not self.exchanges:
            return steps
        whole = self._fit_whole(steps)
        if whole is not None:
            return whole
        latest = self.sizes[-1]
        # Something is dropped. The summary of what is has a bounded size: reserve the one for
        # dropping all but the newest exchange (the exact one is counted below).
        summary = 0
        if len(self.exchanges) > 1 or not self.complete_history:
            summary = self._summary(self.exchanges[-1].start)[1] + SUMMARY_SLACK
        steps = self._fit_steps(steps, max(0, self.budget - self.fixed - latest - summary))
        room = self.budget - self.fixed - self.counter.turns(steps)
        keep, used = 1, latest
        while keep < len(self.exchanges):
            dropping = keep + 1 < len(self.exchanges) or not self.complete_history
            if used + self.sizes[-keep - 1] + (summary if dropping else 0) > room:
                break
            used += self.sizes[-keep - 1]
            keep += 1
        ratio = 1.0
        while True:
            turns = self._assemble(keep, ratio)
            total = self.counter.request(system=self.system, turns=turns + steps, tools=self.tools)
            if total <= self.budget or ratio < 0.01:
                break
            if keep > 1:
                keep -= 1
            else:  # the latest exchange alone is too long: cut its text
                ratio *= max(0.1, (self.budget - self.fixed) / max(1, total - self.fixed) * 0.9)
        self.last_prompt_tokens = total
        self.dropped_exchanges = len(self.exchanges) - keep
        return turns + steps

    def _fit_whole(self, steps: list[Turn]) -> list[Turn] | None:
        """The turns of the next call when the whole history read fits beside ``steps`` (so no
        summary is needed, and none is computed); None when something must be dropped."""
        if not self.complete_history:  # older messages were never read: they are dropped
            return None
        steps = self._fit_steps(steps, max(0, self.budget - self.fixed - self.sizes[-1]))
        if sum(self.sizes) + self.counter.turns(steps) > self.budget - self.fixed:
            return None
        turns = self._assemble(len(self.exchanges), 1.0)
        total = self.counter.request(system=self.system, turns=turns + steps, tools=self.tools)
        if total > self.budget:
            return None
        self.last_prompt_tokens, self.dropped_exchanges = total, 0
        return turns + steps

    def _assemble(self, keep: int, ratio: float) -> list[Turn]:
        kept = self.exchanges[-keep:]
        turns = [turn for exchange in kept for turn in exchange.turns]
        if ratio < 1.0:
            turns = cut_turns(turns, ratio=ratio)
        if keep < len(self.exchanges) or not self.complete_history:
            summary, _ = self._summary(kept[0].start)
            first = turns[0]
            turns[0] = replace(first, content=f"{summary}\n\n{first.content}")
        return turns

    def complete(
        self,
        steps: list[Turn] | None = None,
        *,
        on_text: Callable[[str], None] | None = None,
        deadline: Deadline | None = None,
    ) -> LLMResponse:
        """One model call with what fits; the reply comes back bounded (``bound_reply``).
        ``on_text`` receives the text as it is written, when the provider streams; ``deadline``
        (the turn's total time) bounds the call and its retries, when the provider takes one."""
        turns = self.fit(steps)  # first: it may load tool families
        options: dict[str, Any] = {}
        if on_text and getattr(self.provider, "streams", False):
            options["on_text"] = on_text
        if deadline is not None and getattr(self.provider, "takes_deadline", False):
            options["deadline"] = deadline
        if getattr(self.provider, "reads_pending", False):  # the open batch as data
            options["pending"] = pending_of(self.batch)
        if getattr(self.provider, "reads_world", False):  # the athlete's data, for its lists
            athlete, program = self.conversation.athlete, self.conversation.program
            options["world"] = self.world = self.world or World(  # the same for every call
                ctx=ToolContext(athlete=athlete, program=program, user=athlete),
                today=self.today or timezone.localdate(),
            )
        response = self.provider.complete(
            system=self.system, turns=turns, tools=self.tools, **options
        )
        response.text = bound_reply(response.text or "")
        return response
