"""The one registry of tools: name, description for the model, argument model (and so the JSON
Schema sent to providers), kind, executor, conflict target, and policy: category, display name,
sensitivity tier, confirmation and safety rules (``ToolSpec``).

``tool_definitions()`` gives provider-neutral definitions ``{"name", "description",
"input_schema"}``; each input schema is self-contained (no ``$ref``/``$defs``, no titles), with
``type: object``, ``properties``, ``required`` and ``additionalProperties: false``.

Tools come in families (``ToolSpec.category``; ``coach.tools.catalog``). The registry names no
family: like Django's admin finding each app's ``admin.py``, it discovers the ``tools`` module of
every app in ``INSTALLED_APPS`` that declares ``TOOLS`` (its ToolSpecs, in order), ``PURPOSES``
(one line per family) and, optionally, ``ALWAYS_SENT`` (its families sent with every model call),
in ``INSTALLED_APPS`` order, when this module is first imported (the apps' models must be loaded
by then, as any import of a tool module needs). ``REGISTRY``, ``FAMILIES`` and ``ALWAYS_SENT``
are filled in place, so ``discover()`` (tests installing a toy family) refreshes every importer's
view; it also resolves the ``PLAN`` declaration again, which the engine holds (``coach.plan.held``). The ``ALWAYS_SENT`` families go with every model call; every other family is one line of
the system prompt (``catalog_lines``) and is loaded with ``use_tools`` when the model needs it
(``chat.toolsets`` chooses what a call sends).
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Iterable
from typing import Any

from django.core.exceptions import ImproperlyConfigured

from . import plan as plans
from .discovery import declarations
from .field_words import FIELD_WORDS
from .tools.base import ToolSpec
from .tools.catalog import CATALOG, USE_TOOLS, Family, families_of, use_tools_spec

__all__ = [
    "ALWAYS_SENT",
    "FAMILIES",
    "REGISTRY",
    "USE_TOOLS",
    "ToolSpec",
    "catalog_lines",
    "declarations",
    "discover",
    "family_of",
    "get_tool",
    "input_schema",
    "policy_lines",
    "tool_definitions",
]


def _checked(spec: ToolSpec) -> ToolSpec:
    """The registry's policy holds for every tool: reads never need confirmation, and a write that
    skips the athlete's Apply must be low or high, never critical (seed 004: critical changes are
    always confirmed), and a high one that skips it names the words the athlete must say
    (``intent_words``, checked by ``coach.guardrails``). The conversation layer queues the
    confirmed ones in a batch that only the athlete's click (or the coach's approval) applies;
    the others (logs the athlete states) it may write at once when the guardrails pass."""
    if not spec.category:
        raise ImproperlyConfigured(f"{spec.name}: a tool belongs to a family (category).")
    if spec.kind == "read" and spec.requires_confirmation:
        raise ImproperlyConfigured(f"{spec.name}: a read tool never needs confirmation.")
    if spec.kind == "write" and not spec.requires_confirmation and spec.sensitivity == "critical":
        raise ImproperlyConfigured(f"{spec.name}: a critical change always needs confirmation.")
    if (
        spec.kind == "write"
        and not spec.requires_confirmation
        and spec.sensitivity == "high"
        and not spec.intent_words
    ):
        raise ImproperlyConfigured(
            f"{spec.name}: a high change without confirmation needs intent words."
        )
    if spec.sensitivity not in ("low", "medium", "high", "critical"):
        raise ImproperlyConfigured(f"{spec.name}: unknown sensitivity {spec.sensitivity!r}.")
    return spec


# The families whose schemas go with every model call: those a declaration names in its
# ``ALWAYS_SENT`` (the program's), and use_tools' own. Filled in place by ``discover``.
ALWAYS_SENT: list[str] = []

FAMILIES: dict[str, Family] = {}
REGISTRY: dict[str, ToolSpec] = {}


def discover() -> None:
    """Fill ``FAMILIES`` and ``REGISTRY`` from the installed apps' declarations (again), and
    resolve the ``PLAN`` declaration the engine holds (``coach.plan.held``) again."""
    found = declarations()
    families = families_of(found)
    always = [name for module in found for name in getattr(module, "ALWAYS_SENT", ())]
    always = [*dict.fromkeys([*always, CATALOG])]
    loadable = {name: family for name, family in families.items() if name not in always}
    if loadable:
        families[CATALOG] = Family(name=CATALOG, purpose="", specs=(use_tools_spec(loadable),))
    specs = [_checked(spec) for family in families.values() for spec in family.specs]
    registry = {spec.name: spec for spec in specs}
    if len(registry) != len(specs):
        raise ImproperlyConfigured("Two tools share a name.")
    ALWAYS_SENT[:] = always
    FIELD_WORDS.clear()
    for module in found:
        FIELD_WORDS.update(getattr(module, "FIELD_WORDS", {}))
    plans.resolve()
    FAMILIES.clear()
    FAMILIES.update(families)
    REGISTRY.clear()
    REGISTRY.update(registry)


discover()


def get_tool(name: str) -> ToolSpec | None:
    return REGISTRY.get(name)


def _inline(node: Any, defs: dict[str, Any]) -> Any:
    if isinstance(node, dict):
        if "$ref" in node:
            name = node["$ref"].rsplit("/", 1)[-1]
            resolved = _inline(copy.deepcopy(defs[name]), defs)
            extra = {k: _inline(v, defs) for k, v in node.items() if k != "$ref"}
            return {**resolved, **extra}
        out = {}
        for key, value in node.items():
            if key == "$defs":
                continue
            if key == "title" and isinstance(value, str):
                continue
            if key == "default" and value is None:
                continue
            if key == "properties" and isinstance(value, dict):
                out[key] = {name: _inline(prop, defs) for name, prop in value.items()}
                continue
            out[key] = _inline(value, defs)
        return out
    if isinstance(node, list):
        return [_inline(item, defs) for item in node]
    return node


def input_schema(spec: ToolSpec) -> dict[str, Any]:
    """The self-contained JSON Schema of a tool's arguments (a fresh copy the caller may change)."""
    return copy.deepcopy(_input_schema(spec.args_model))


@functools.cache
def _input_schema(args_model: type) -> dict[str, Any]:
    # Generating the schemas takes about 30 ms for all tools: once per process is enough.
    raw = args_model.model_json_schema()
    schema = _inline(raw, raw.get("$defs", {}))
    schema.setdefault("properties", {})
    schema.setdefault("required", [])
    schema["type"] = "object"
    schema["additionalProperties"] = False
    return schema


def family_of(name: str) -> str | None:
    """The family of the tool called ``name`` (None for a name no tool has)."""
    spec = REGISTRY.get(name)
    return spec.category if spec is not None else None


def _sent(spec: ToolSpec, families: Iterable[str] | None) -> bool:
    return families is None or spec.category in ALWAYS_SENT or spec.category in families


def tool_definitions(
    *, kind: str | None = None, families: Iterable[str] | None = None
) -> list[dict[str, Any]]:
    """``[{"name", "description", "input_schema"}]`` for every tool (or every tool of ``kind``);
    with ``families``, only the tools of those families and of the ``ALWAYS_SENT`` ones."""
    families = None if families is None else set(families)
    return [
        {"name": spec.name, "description": spec.description, "input_schema": input_schema(spec)}
        for spec in REGISTRY.values()
        if (kind is None or spec.kind == kind) and _sent(spec, families)
    ]


def policy_lines(families: Iterable[str] | None = None) -> list[str]:
    """The registry's safety rules for the system prompt: one line per tool that has any (of the
    tools ``tool_definitions(families=...)`` sends)."""
    families = None if families is None else set(families)
    lines = []
    for spec in REGISTRY.values():
        if spec.safety_rules and _sent(spec, families):
            lines.append(f"- {spec.name} ({spec.sensitivity}): {' '.join(spec.safety_rules)}")
    return lines


def catalog_lines(families: Iterable[str] | None = None) -> list[str]:
    """One line per family whose schemas are not sent with ``families`` (none when every tool is)."""
    if families is None:
        return []
    sent = set(families) | set(ALWAYS_SENT)
    return [family.line() for name, family in FAMILIES.items() if name not in sent]
