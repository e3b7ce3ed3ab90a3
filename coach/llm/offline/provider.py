"""The offline provider: answers a conversation with the tool calls its commands name, the help
text, or an acknowledgment of a decision (read from the structured ``Turn.events``). What is
pending it reads as data too (``Pending``, passed beside the system prompt, ``reads_pending``),
never from the prompt's prose."""

from __future__ import annotations

import json
import re
import time
from typing import Any

from coach.llm.base import LLMResponse, Pending, Turn, Usage, World
from coach.registry import FAMILIES, REGISTRY, USE_TOOLS
from coach.toolcalls import ToolCall
from coach.wording import athlete_words

from .chips import nearest
from .commands import at_once, help_text, parse_command, split_commands
from .grammar import CommandError, Parsed, with_replies
from .replies import answer_reply
from .understand import Understood, crisis, understand


def read_tools() -> set[str]:
    """The registry's reads the commands may name (answered at once; ``use_tools`` is the
    model's, never a command's)."""
    return {spec.name for spec in REGISTRY.values() if spec.kind == "read"} - {USE_TOOLS}


def _logs(names: list[Any]) -> bool:
    """Every call named is a log of what the athlete stated (``ToolSpec.logs``)."""
    return bool(names) and all(
        (spec := REGISTRY.get(name)) is not None and spec.logs for name in names
    )


def acknowledgment(event: dict[str, Any]) -> str:
    """The reply to a decision the app reports (``Turn.events``, structured data, never prose)."""
    kind = event.get("kind")
    results = event.get("results") or []
    replies = ["help", "Show my program"]
    summaries = [
        r.get("spoken") or r.get("summary", "")
        for r in results
        if r.get("success") and (r.get("spoken") or r.get("summary"))
    ]
    problems = [
        athlete_words(" ".join(r.get("errors") or [])) for r in results if not r.get("success")
    ]
    if kind in ("applied", "approved"):
        who = "Your coach approved it: I" if kind == "approved" else "Done — I"
        noun = "changes" if len(results) > 1 else "change"
        detail = "".join(f"\n- {s}" for s in summaries)
        if event.get("edits"):
            detail += "\n(with your edits)"
        return with_replies(f"{who} applied the {noun}.{detail}", replies)
    if kind == "failed":
        detail = "".join(f"\n- {p}" for p in problems if p)
        return with_replies(f"That didn't work, so nothing was changed.{detail}", replies)
    if kind == "review_requested":
        return with_replies(
            "I've sent that to your coach for approval. Nothing changes until they approve it.",
            ["help"],
        )
    if kind == "declined":
        note = (
            f" Their note: {json.dumps(event.get('note', ''), ensure_ascii=False)}"
            if event.get("note")
            else ""
        )
        return with_replies(f"Your coach declined that change, so nothing changed.{note}", replies)
    if kind == "undone" and _logs([c.get("name") for c in event.get("calls") or []]):
        return with_replies("Undone — that log is removed.", replies)
    if kind == "undone":
        return with_replies("Undone — your program is back to how it was.", replies)
    if kind == "expired":
        return with_replies("Those proposed changes expired; nothing was changed.", replies)
    return with_replies("No problem, nothing was changed.", replies)


def reachable(tools: list[dict[str, Any]]) -> set[str]:
    """The tools a call may use: those offered, and the tools of every family the offered
    ``use_tools`` names in its schema (``coach.tools.catalog``)."""
    names = {tool.get("name") for tool in tools}
    for tool in tools:
        if tool.get("name") == USE_TOOLS:
            schema = tool.get("input_schema") or {}
            items = (schema.get("properties") or {}).get("families", {}).get("items") or {}
            for family in items.get("enum") or []:
                if family in FAMILIES:
                    names.update(FAMILIES[family].tool_names)
    return names


class OfflineProvider:
    """The embedded default provider; see the module docstring for its grammar."""

    name = "offline"
    model = "offline-commands"
    offline = True
    reads_pending = True  # chat.budget passes the open batch as data
    reads_world = True  # ... and the athlete's context, for the lists of ``understand``

    def complete(
        self,
        *,
        system: str = "",
        turns: list[Turn],
        tools: list[dict[str, Any]] | None = None,
        pending: Pending | None = None,
        world: World | None = None,
    ) -> LLMResponse:
        started = time.monotonic()
        world = world or World()
        world.turns = turns
        response = self._respond(turns, tools, pending, world)
        response.latency_ms = int((time.monotonic() - started) * 1000)
        return response

    def _respond(
        self,
        turns: list[Turn],
        tools: list[dict[str, Any]] | None,
        pending: Pending | None,
        world: World,
    ) -> LLMResponse:
        if turns and turns[-1].role == "tool":
            trailing: list[Turn] = []
            for turn in reversed(turns):
                if turn.role != "tool":
                    break
                trailing.insert(0, turn)
            asked = turns[-len(trailing) - 1] if len(turns) > len(trailing) else None
            if asked is not None and all(c.name in read_tools() for c in asked.tool_calls):
                # The answer of a read tool (``show week 2``): show it as it came, then propose
                # the changes the same message asked for (``show week 3 and rename ...``).
                shown = "\n\n".join(t.person_text or t.content for t in trailing)
                writes = [p for p in self._commands(turns, world) if p.name not in read_tools()]
                if writes:
                    return self._proposal(writes, turns, opening=shown)
                return self._text(with_replies(shown, ["help"]))
            return self._text(
                with_replies(
                    "The change is waiting for you: press Apply Changes or Cancel in the preview.",
                    ["help"],
                )
            )
        last = next((t for t in reversed(turns) if t.role == "user"), None)
        if last is not None and last.events and not (last.athlete_text or "").strip():
            return self._text(acknowledgment(last.events[-1]))
        message = (
            ""
            if last is None
            else (last.athlete_text if last.athlete_text is not None else last.content)
        )
        message = message.strip()
        if (found := crisis(message, world)) is not None and found.calls:
            # Crisis language is the crisis path whatever else the message holds: before a reply
            # to the open card, before the documented commands ("remind me to ... at 9:00").
            return self._proposal(found.calls, turns)
        reply = answer_reply(message, turns=turns, pending=pending)
        if reply is not None and reply.reads:
            return self._proposal(reply.reads, turns)
        if reply is not None and reply.text:
            return self._text(reply.text)
        if reply is not None:
            message = reply.retry
        if not message or re.fullmatch(r"(help|commands|\?|/help|menu)[.!?]?", message, re.I):
            return self._text(help_text())
        if _AGREES.fullmatch(message):
            return self._text(_apply_is_a_button(pending))
        parsed, problem = self._read(message, world)
        if isinstance(parsed, Understood):
            if parsed.ask is not None:
                return self._text(with_replies(parsed.ask.question, list(parsed.ask.options)))
            return self._text(with_replies(parsed.problem, ["help"]))
        if parsed is None:
            return self._text(self._not_understood(message, problem))
        # ``tools=None`` (a direct call) offers every tool; a list offers those in it and, like a
        # model, the tools of the families its ``use_tools`` can load (called directly).
        allowed = None if tools is None else reachable(tools)
        refused = [p for p in parsed if allowed is not None and p.name not in allowed]
        if refused:
            return self._text(
                with_replies(
                    f"I can't {refused[0].description} here: that tool isn't available.", ["help"]
                )
            )
        reads = [p for p in parsed if p.name in read_tools()]
        if reads and len(reads) < len(parsed):
            # A read mixed with changes: the read runs first; its answer comes back as a tool
            # turn, and the changes are proposed after it (above), so the read is never on a card.
            return self._proposal(reads, turns)
        return self._proposal(parsed, turns)

    def _read(self, message: str, world: World) -> tuple[list[Parsed] | Understood | None, str]:
        """The calls ``message`` asks for: its commands when every part of it is one (the
        documented syntax), else what ``understand`` makes of it in everyday words; an
        ``Understood`` holding a question or a problem; or None and, when a command was
        recognised but unusable, what was wrong with it."""
        parsed: list[Parsed] = []
        problem = ""
        for command in split_commands(message):
            try:
                result = parse_command(command)
            except CommandError as exc:
                problem = f'I couldn\'t use "{command}": {exc}'
                break
            if result is None:
                if parsed:  # commands, then a part that is none: say which part
                    problem = f'I didn\'t understand "{command}", so I changed nothing.'
                break
            parsed.append(result)
        else:
            if parsed:
                return parsed, ""
        understood = understand(message, world)
        if understood is None or (understood.problem and problem):
            return None, problem  # a command's own problem says best what to type
        if understood.ask is not None or understood.problem:
            return understood, ""
        return understood.calls, ""

    def _not_understood(self, message: str, problem: str) -> str:
        """A command recognised but unusable says what was wrong; anything else gets the nearest
        things the coach understands as chips, never a guess and never the whole help."""
        chips = nearest(message)
        if problem:
            return with_replies(problem, [*chips[:2], "help"])
        if message.endswith("?") or _looks_like_question(message):
            opening = "I can't answer that while I'm offline."
        else:
            opening = f'I didn\'t understand "{message}", so I changed nothing.'
        if chips:
            return with_replies(f"{opening} Did you mean one of these?", [*chips, "help"])
        return with_replies(f'{opening} Type "help" to see what I understand.', ["help"])

    def _commands(self, turns: list[Turn], world: World) -> list[Parsed]:
        """The calls of the athlete's last message (already read once without an error)."""
        last = next((t for t in reversed(turns) if t.role == "user"), None)
        message = "" if last is None else (last.athlete_text or last.content or "")
        world.said.clear()
        parsed, _ = self._read(message.strip(), world)
        return parsed if isinstance(parsed, list) else []

    def _proposal(
        self, parsed: list[Parsed], turns: list[Turn], *, opening: str = ""
    ) -> LLMResponse:
        """Tool calls for ``parsed``: reads alone carry no text; changes are listed for the
        athlete after ``opening`` (the answer of a read asked in the same message)."""
        first = 1 + sum(len(t.tool_calls) for t in turns)
        calls = [
            ToolCall(id=f"call_offline_{first + i}", name=p.name, arguments=p.arguments)
            for i, p in enumerate(parsed)
        ]
        if all(p.name in read_tools() for p in parsed):
            text = ""
        elif all(p.name in at_once() for p in parsed):
            lines = ["Got it, I'll log that:"] + [f"- {p.description}" for p in parsed]
            text = with_replies("\n".join(lines), ["help"])
        else:
            lines = [opening, ""] if opening else []
            lines += ["Here's what I'll change:"] + [f"- {p.description}" for p in parsed]
            lines.append("Check the preview, then press Apply Changes or Cancel.")
            text = with_replies("\n".join(lines), ["What does this change?", "help"])
        return LLMResponse(
            text=text,
            tool_calls=calls,
            finish_reason="tool_calls",
            usage=Usage(prompt_tokens=0, completion_tokens=0),
            provider=self.name,
            model=self.model,
        )

    def _text(self, text: str) -> LLMResponse:
        return LLMResponse(
            text=text,
            tool_calls=[],
            finish_reason="stop",
            usage=Usage(),
            provider=self.name,
            model=self.model,
        )


# "yes, apply it", "ok go ahead", "do it": typed agreement applies nothing; the button decides.
_AGREES = re.compile(
    r"(?:(?:yes|yeah|yep|yup|ok|okay|sure|fine|great|perfect|sounds good|looks good|alright)"
    r"[\s,.!]*)*(?:please[\s,.!]*)?(?:(?:apply|confirm|accept|approve)(?: it| that| them| this| the"
    r" changes?| changes)?|do it|go ahead|make (?:it|the change)|yes|yeah|yep|ok|okay|sure)?"
    r"(?:[\s,.!]*please)?[\s.!]*",
    re.I,
)


def _apply_is_a_button(pending: Pending | None) -> str:
    if pending is not None and pending.calls:
        return with_replies(
            "Typing doesn't apply anything: press Apply Changes in the preview to make the change, "
            "or Cancel to drop it.",
            ["What does this change?", "help"],
        )
    return with_replies("There's no change waiting to be applied.", ["help"])


def _looks_like_question(message: str) -> bool:
    return bool(
        re.match(
            r"(what|why|how|when|where|who|which|can|could|should|is|are|do|does)\b", message, re.I
        )
    )
