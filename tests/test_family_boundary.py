"""The engine knows no family (issue 19 items 1-2), checked by an AST walk of the source:

- no module of ``coach/`` (every ``.py`` under it, its migrations and management commands
  included) imports a family app (``programs``, ``training``, ``library``, ``nutrition``,
  ``wellness``: the apps that declare tools, found by the registry's discovery) or ``chat``;
- no module of the engine (``coach/``) or the chat (``chat/``) holds a registered tool's name in a
  string literal, docstrings included: what they need of a tool they read from its declaration
  (``ToolSpec``). The names come from the registry, so a new tool is checked the moment it is
  declared. Left out (``NAMES_ALLOWED``): the benchmarks, the fake model server and the eval's
  scenario format, which build or name concrete calls on purpose.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from django.conf import settings

from coach import registry
from coach.registry import REGISTRY

ROOT = Path(settings.BASE_DIR)
COACH = ROOT / "coach"
# Where a tool's name may stand in the engine and the chat: where concrete calls are the point,
# the benchmarks and the fake model server (they build calls as a model would) and the eval's
# scenario format (its coach's edits are named after the tools they stand for).
NAMES_ALLOWED = (
    ROOT / "chat" / "management" / "commands",
    ROOT / "chat" / "evals" / "scenarios.py",
    COACH / "llm" / "fake_server",
    COACH / "management" / "commands",
)
NO_TOOL_NAMES = [
    path
    for path in sorted([*COACH.rglob("*.py"), *(ROOT / "chat").rglob("*.py")])
    if "migrations" not in path.parts
    and not any(path == allowed or allowed in path.parents for allowed in NAMES_ALLOWED)
]


def family_apps() -> set[str]:
    """The apps that declare tools (found by the registry, as it finds them), the engine aside."""
    return {module.__name__.split(".")[0] for module in registry.declarations()} - {"coach"}


def imported(path: Path) -> set[str]:
    """The absolute modules ``path`` imports, at any depth (relative imports stay in the app)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
    return found


def forbidden_imports(path: Path, forbidden: set[str]) -> set[str]:
    return {module for module in imported(path) if module.split(".")[0] in forbidden}


def engine_tool_names() -> set[str]:
    """Every registered tool of a family (the engine's own ``use_tools`` aside)."""
    return {
        spec.name for spec in REGISTRY.values() if not spec.execute.__module__.startswith("coach.")
    }


def tool_names_in(source: str, names: set[str]) -> list[tuple[int, str]]:
    """``(line, name)`` for each tool name found, as a word, in a string literal of ``source``."""
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, sorted(names))) + r")\b")
    return [
        (node.lineno, match)
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        for match in pattern.findall(node.value)
    ]


def test_the_family_apps_are_the_six_families():
    assert family_apps() == {"programs", "training", "library", "nutrition", "wellness", "media"}


def test_no_module_of_coach_imports_a_family_app_or_chat():
    forbidden = family_apps() | {"chat"}
    offenders = {
        f"{path.relative_to(ROOT)}: {', '.join(sorted(modules))}"
        for path in sorted(COACH.rglob("*.py"))
        if (modules := forbidden_imports(path, forbidden))
    }
    assert offenders == set()


def test_the_engine_and_the_chat_name_no_tool():
    names = engine_tool_names()
    assert {"get_week", "log_mood", "recipe_create"} <= names  # the registry's, not a copy
    offenders = [
        f"{path.relative_to(ROOT)}:{line}: {name}"
        for path in NO_TOOL_NAMES
        for line, name in tool_names_in(path.read_text(), names)
    ]
    assert offenders == []


def test_the_check_finds_a_tool_name_in_a_string_or_a_docstring_but_not_in_a_comment():
    names = engine_tool_names()
    source = (
        '"""Undo a log_mood."""\n'
        "# log_medication in a comment is not a string\n"
        'x = call.name == "log_medication"\n'
        'y = "get_weekly"  # a longer word is not the name\n'
    )
    assert tool_names_in(source, names) == [(1, "log_mood"), (3, "log_medication")]
