"""Tool families, and ``use_tools``: the one tool that makes a family's schemas available.

Every tool belongs to a family (``ToolSpec.category``: program, training, schedule, library, ...).
The program family goes with every model call (``ALWAYS_SENT`` in ``coach.registry``). Every other
family costs one line of the system prompt (``Family.line``: its purpose) until the model needs
it; then it calls ``use_tools`` with the family's name (or calls one of its tools directly), and
the family's full schemas go with the next model calls of that turn and
of the turns after it while the family stays in use (``chat.toolsets`` decides; the registry only
describes). So the prompt grows by a line per family, never by a family's schemas, and the model can
always reach every tool.

``use_tools`` is a read tool: it changes nothing, never joins a batch, and its answer names the
tools that are now available (the model sees their schemas from its next call on). A family app's
``tools`` module describes each of its families in one line (``PURPOSES``); a family without one
is described by its tools' names.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from types import ModuleType
from typing import Literal

from pydantic import Field, create_model

from ..schemas import StrictModel
from .base import Outcome, ToolContext, ToolSpec, no_target

USE_TOOLS = "use_tools"
CATALOG = "catalog"  # use_tools' own family; it is sent with every call


@dataclass(frozen=True)
class Family:
    """One family of tools: its name (the tools' ``category``), purpose and tools, in order."""

    name: str
    purpose: str
    specs: tuple[ToolSpec, ...]

    @property
    def tool_names(self) -> list[str]:
        return [spec.name for spec in self.specs]

    def line(self) -> str:
        """The family in the system prompt while its schemas are not sent: its purpose, or the
        names of its tools when it has none. A line, whatever the number of its tools."""
        return f"- {self.name}: {self.purpose or ', '.join(self.tool_names)}"


def families_of(declarations: Iterable[ModuleType]) -> dict[str, Family]:
    """The families the declarations' ``TOOLS`` form, in the order they list them first, each
    described by the first ``PURPOSES`` line given for it."""
    specs: dict[str, list[ToolSpec]] = {}
    purposes: dict[str, str] = {}
    for declaration in declarations:
        for spec in declaration.TOOLS:
            specs.setdefault(spec.category, []).append(spec)
        for name, purpose in getattr(declaration, "PURPOSES", {}).items():
            if purpose and not purposes.get(name):
                purposes[name] = purpose
    return {
        name: Family(name=name, purpose=purposes.get(name, ""), specs=tuple(family))
        for name, family in specs.items()
    }


def use_tools_spec(families: dict[str, Family]) -> ToolSpec:
    """``use_tools`` for the families it can load (every family not always sent)."""
    names = tuple(families)
    args_model = create_model(
        "UseToolsArgs",
        __base__=StrictModel,
        families=(
            list[Literal[names]],  # type: ignore[valid-type]
            Field(min_length=1, max_length=len(names)),
        ),
    )

    def use_tools(*, ctx: ToolContext, args) -> Outcome:
        lines = [
            f"{name}: {', '.join(families[name].tool_names)}"
            for name in dict.fromkeys(args.families)
        ]
        return Outcome(
            summary="These tools are now available; call them as usual:\n" + "\n".join(lines)
        )

    return ToolSpec(
        name=USE_TOOLS,
        description="Load the tools of families the system prompt lists, to call them next. Changes nothing.",
        args_model=args_model,
        kind="read",
        requires_confirmation=False,
        sensitivity="low",
        category=CATALOG,
        display_name="Load tools",
        execute=use_tools,
        target=no_target,
    )
