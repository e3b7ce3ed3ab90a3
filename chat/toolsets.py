"""Which tool families a model call sends (the families are ``coach.registry``'s; see
``coach.tools.catalog``).

The program tools and ``use_tools`` (``ALWAYS_SENT``) go with every call. Every other family is one
line of the system prompt, and its schemas go with a call only when it is **loaded**:

1. **Asked for in this turn**: a ``use_tools`` call naming it, or a call to one of its tools, in
   the turn's read rounds so far. A model may call a listed tool without loading its family first
   (the offline coach does): the call is accepted like any other, since the registry validates
   every call whatever was sent, and the family is loaded for the calls after it.
2. **In use**: one of the conversation's last ``FAMILY_REPLIES`` replies asked for it (as above).
   A family the model stops using drops out after that many replies; ``use_tools`` brings it back.

Both are read from stored tool calls (``Message.tool_calls`` and ``Message.steps``: data, never
prose), so the choice is deterministic and a retried turn makes the same one. Each reply records
the families it loaded (``Message.tool_families``). When the context window is small
(``chat.budget``) the families in use are left out before those the turn asked for; the program
tools always go.

``definitions`` gives a call's tool definitions, built once per set of families: they depend only
on the registry (its tools and always-sent families, compared by identity on every call, so a
``coach.registry.discover`` builds them again) and the families loaded.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from coach.registry import ALWAYS_SENT, FAMILIES, REGISTRY, USE_TOOLS, family_of, tool_definitions
from coach.toolcalls import ToolCall

from .models import Conversation, Message

FAMILY_REPLIES = 3

# The registry the cached definitions were built from (its tools and always-sent families), and
# the definitions by loaded families. Replaced whole, so a thread reads one consistent state.
_built: tuple[tuple[Any, ...], tuple[str, ...], dict[frozenset[str], list[dict[str, Any]]]] = (
    (),
    (),
    {},
)


def ordered(families: Iterable[str]) -> list[str]:
    """``families`` without repeats, the always-sent and unknown ones left out, in the registry's
    order (so the tools a call sends don't depend on the order they were asked for)."""
    wanted = set(families)
    return [name for name in FAMILIES if name in wanted and name not in ALWAYS_SENT]


def families_called(calls: Iterable[ToolCall]) -> list[str]:
    """The loadable families ``calls`` ask for: the families ``use_tools`` names, and the family of
    every other tool called."""
    found: list[str] = []
    for call in calls:
        if call.name == USE_TOOLS:
            named = (call.arguments or {}).get("families")
            found += [n for n in named if isinstance(n, str)] if isinstance(named, list) else []
        else:
            found.append(family_of(call.name) or "")
    return ordered(found)


def reply_calls(tool_calls: list[dict[str, Any]], steps: list[dict[str, Any]]) -> list[ToolCall]:
    """Every call one stored reply made: its read rounds' and its final ones."""
    raws = [raw for step in steps or [] for raw in step.get("tool_calls") or []]
    return [ToolCall.from_raw(raw) for raw in [*raws, *(tool_calls or [])]]


def families_in_use(
    *,
    conversation: Conversation,
    before: Message | None,
    newest: list[Message] | None = None,
    complete: bool = False,
) -> list[str]:
    """The families the last ``FAMILY_REPLIES`` replies before ``before`` asked for. ``newest``:
    the conversation's newest messages before ``before``, newest first, when the caller has read
    them (``complete``: all of them); they are read only when those don't hold enough replies."""
    held = [m for m in newest or [] if m.role == Message.Role.ASSISTANT][:FAMILY_REPLIES]
    if len(held) == FAMILY_REPLIES or (newest is not None and complete):
        recent = [(m.tool_calls, m.steps) for m in held]
    else:
        replies = Message.objects.filter(conversation=conversation, role=Message.Role.ASSISTANT)
        if before is not None:
            replies = replies.filter(pk__lt=before.pk)
        recent = replies.order_by("-pk").values_list("tool_calls", "steps")[:FAMILY_REPLIES]
    return families_called(call for calls, steps in recent for call in reply_calls(calls, steps))


def tiers(*, in_use: list[str], asked: list[str]) -> list[list[str]]:
    """The loaded families to try, richest first: those in use and those asked for, then only
    those asked for (``chat.budget`` takes the first that fits)."""
    first = ordered([*in_use, *asked])
    second = ordered(asked)
    return [first] if first == second else [first, second]


def definitions(families: Iterable[str]) -> list[dict[str, Any]]:
    """``coach.registry.tool_definitions(families=families)``, built once while the registry
    stays the same. The list is the caller's; its definitions are shared by every call (read
    them, don't change them)."""
    global _built
    specs, always, cache = _built
    current = tuple(REGISTRY.values())
    if (
        len(current) != len(specs)
        or any(a is not b for a, b in zip(current, specs, strict=True))
        or tuple(ALWAYS_SENT) != always
    ):
        specs, always, cache = current, tuple(ALWAYS_SENT), {}
        _built = (specs, always, cache)
    key = frozenset(families)
    if key not in cache:
        cache[key] = tool_definitions(families=key)
    return list(cache[key])
