"""Prompt tokens per turn: what one model call sends, against the conversation's length and the
program's size, through the real ``chat.budget.TurnRequest``.

    manage.py bench_tokens                          # 128k and 8k windows, gpt-4o-mini's vocabulary
    manage.py bench_tokens --contexts 32000 --model claude-haiku-4-5 --provider anthropic

1. The first turn (one athlete message) for programs of 4, 16 and 52 weeks × 6 sessions × 8
   exercises: the prompt as sent (the program tools and ``use_tools``, every other tool family a
   line of the system prompt: ``chat.toolsets``), next to the same prompt with every family's
   schemas (as before families were loaded on demand) and the whole program as JSON. The goal is
   ≤ 6,000 tokens at 52 weeks. Then what loading each family costs: the next call of the turn
   after ``use_tools`` (the call and its answer included), against the first.
2. A turn after 10, 100, 1,000 and 10,000 messages (questions and answers, every fifth with a
   ``get_week`` round, every seventh with a proposal): the whole conversation as it would go
   without a budget, what is sent, the budget, the exchanges kept and the time to build the
   request. Every turn must stay under the budget.

Runs on the configured database (migrating it first) inside a transaction it rolls back. Exits
with an error when a goal is missed.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction
from django.test import override_settings

from chat.budget import TurnRequest, prompt_budget
from chat.models import Conversation, Message
from chat.prompt import build_system_prompt, build_turns
from coach.llm.base import Turn
from coach.llm.tokens import count_tokens
from coach.plan import plan
from coach.registry import ALWAYS_SENT, FAMILIES, USE_TOOLS, get_tool, tool_definitions
from coach.toolcalls import ToolCall

from ._bench_history import build_history

FIRST_TURN_GOAL = 6000
FIRST_TURN_WEEKS = 52


@dataclass
class _Model:
    """What the budget needs to know of a provider: its name, model and tool format."""

    name: str
    model: str
    tool_format: str = "native"


class Command(BaseCommand):
    help = "Prompt tokens per turn against conversation length and program size, under budget."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--contexts", default="128000,8000", help="LLM_CONTEXT_TOKENS values")
        parser.add_argument("--lengths", default="10,100,1000,10000", help="messages")
        parser.add_argument("--sizes", default="4,16,52", help="program sizes in weeks")
        parser.add_argument("--provider", default="openai")
        parser.add_argument("--model", default="gpt-4o-mini")
        parser.add_argument("--tool-format", default="native", choices=["native", "text"])

    def handle(self, *args: Any, **options: Any) -> None:
        call_command("migrate", verbosity=0)
        model = _Model(options["provider"], options["model"], options["tool_format"])
        contexts = [int(v) for v in options["contexts"].split(",")]
        lengths = [int(v) for v in options["lengths"].split(",")]
        sizes = [int(v) for v in options["sizes"].split(",")]
        misses: list[str] = []
        with transaction.atomic():
            athlete = get_user_model().objects.create(username="bench-tokens")
            misses += self._first_turns(athlete, model, sizes)
            for context in contexts:
                with override_settings(LLM_CONTEXT_TOKENS=context):
                    misses += self._lengths(athlete, model, lengths, context)
            transaction.set_rollback(True)
        if misses:
            raise CommandError("Goals missed: " + "; ".join(misses))

    def _conversation(self, athlete, weeks: int) -> Conversation:
        program = plan().bulk(athlete=athlete, weeks=weeks, sessions=6, exercises=8)
        return Conversation.objects.create(athlete=athlete, program=program)

    @staticmethod
    def _ask(conversation: Conversation, text: str) -> Message:
        user = Message.objects.create(conversation=conversation, role="user", content=text)
        return Message.objects.create(
            conversation=conversation, role="assistant", status="pending", reply_to=user
        )

    def _first_turns(self, athlete, model: _Model, sizes: list[int]) -> list[str]:
        self.stdout.write(
            f"first turn ({model.name} {model.model}, {model.tool_format} tools): prompt tokens vs "
            "every family's schemas and the whole program as JSON\n"
            f"  {'weeks':>5}  {'prompt':>7}  {'of which tools':>14}  {'every family':>12}  "
            f"{'summary detail':>14}  {'program JSON':>12}"
        )
        misses = []
        for weeks in sizes:
            conversation = self._conversation(athlete, weeks)
            placeholder = self._ask(conversation, "Swap my squats for lunges this week.")
            request = TurnRequest.start(
                conversation=conversation,
                before=placeholder,
                provider=model,
                today=conversation.program.start_date,
            )
            turns = request.fit()
            prompt = request.counter.request(
                system=request.system, turns=turns, tools=request.tools
            )
            tools = request.counter.request(system="", turns=[], tools=request.tools)
            every = request.counter.request(
                system=build_system_prompt(
                    program=conversation.program,
                    athlete=athlete,
                    batch=None,
                    today=conversation.program.start_date,
                    detail=request.detail,
                ),
                turns=turns,
                tools=tool_definitions(),
            )
            whole = count_tokens(json.dumps(plan().export(conversation.program)))
            self.stdout.write(
                f"  {weeks:>5}  {prompt:>7,}  {tools:>14,}  {every:>12,}  {request.detail:>14}  "
                f"{whole:>12,}"
            )
            if weeks == FIRST_TURN_WEEKS and prompt > FIRST_TURN_GOAL:
                misses.append(f"first turn at {weeks} weeks is {prompt:,} tokens")
            if weeks == sizes[-1]:
                self._family_costs(conversation, placeholder, model, prompt)
        return misses

    def _family_costs(self, conversation, placeholder, model: _Model, first: int) -> None:
        self.stdout.write(
            f"\nloading a family ({conversation.program.weeks.count()} weeks): the next call after "
            f"{USE_TOOLS}, against the first call ({first:,})\n"
            f"  {'family':>10}  {'tools':>5}  {'next call':>9}  {'more':>6}"
        )
        for name, family in FAMILIES.items():
            if name in ALWAYS_SENT:
                continue
            request = TurnRequest.start(
                conversation=conversation,
                before=placeholder,
                provider=model,
                today=conversation.program.start_date,
            )
            call = ToolCall(id="call_bench", name=USE_TOOLS, arguments={"families": [name]})
            answer = get_tool(USE_TOOLS).execute(
                ctx=None, args=get_tool(USE_TOOLS).args_model(families=[name])
            )
            steps = [
                Turn(role="assistant", content="", tool_calls=[call]),
                Turn(role="tool", tool_call_id=call.id, content=answer.summary),
            ]
            turns = request.fit(steps)
            sent = request.counter.request(system=request.system, turns=turns, tools=request.tools)
            self.stdout.write(
                f"  {name:>10}  {len(family.specs):>5}  {sent:>9,}  {sent - first:>+6,}"
            )

    def _lengths(self, athlete, model: _Model, lengths: list[int], context: int) -> list[str]:
        budget = prompt_budget()
        self.stdout.write(
            f"\nturn after N messages, LLM_CONTEXT_TOKENS={context:,} (prompt budget {budget:,}, "
            f"{connection.vendor}):\n"
            f"  {'messages':>8}  {'unbudgeted':>10}  {'sent':>7}  {'kept':>6}  {'dropped':>7}  "
            f"{'detail':>7}  {'build ms':>8}  {'under':>5}"
        )
        misses = []
        for length in lengths:
            conversation = self._conversation(athlete, 8)
            build_history(conversation=conversation, messages=length)
            placeholder = self._ask(conversation, "What is on today?")
            started = time.perf_counter()
            request = TurnRequest.start(
                conversation=conversation, before=placeholder, provider=model
            )
            turns = request.fit()
            elapsed = (time.perf_counter() - started) * 1000
            sent = request.counter.request(system=request.system, turns=turns, tools=request.tools)
            whole = request.counter.request(
                system=request.system,
                turns=build_turns(conversation, before=placeholder),
                tools=request.tools,
            )
            kept = len(request.exchanges) - request.dropped_exchanges
            # "+": older exchanges were never read (the budget was full before them).
            dropped = f"{request.dropped_exchanges}{'' if request.complete_history else '+'}"
            under = sent <= budget
            self.stdout.write(
                f"  {length:>8,}  {whole:>10,}  {sent:>7,}  {kept:>6}  {dropped:>7}  "
                f"{request.detail:>7}  {elapsed:>8.0f}  {'yes' if under else 'NO':>5}"
            )
            if not under:
                misses.append(f"{length} messages at {context:,}: {sent:,} > {budget:,}")
        return misses
