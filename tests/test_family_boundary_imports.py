"""Who may import a family app (issue 19; docs/architecture.md, "The layers").

A family app (``programs``, ``training``, ``library``, ``nutrition``, ``wellness``: every installed
app whose ``tools`` module declares ``TOOLS``) owns its tools, its demo data, its plan declaration
and its admin; the engine and the chat reach it only by discovery (``coach.discovery``,
``coach.plan``). An AST walk over every module of the product (not ``tests/``, not migrations)
checks the two rules:

1. No module outside a family's app imports that family: ``chat``, ``coach``, ``config``,
   ``journal`` and ``manage.py`` name none.
2. A family imports another family only through that family's public modules, ``PUBLIC``:
   ``services`` (what it does) and ``access`` (what each family declares to the one policy, ``access.policy``).

Rule 1 holds with no exception. ``ALLOWED`` lists the cross-family imports of rule 2 that existed when the rule was
written (mostly ``programs.models`` read by training and library), so that nothing new is added.
An entry that no longer occurs fails the test too: the lists only shrink.
"""

from __future__ import annotations

import ast
from pathlib import Path

from django.conf import settings

from coach.discovery import declarations

ROOT = Path(settings.BASE_DIR)
SKIPPED = {"tests", ".venv", ".git", "migrations", "node_modules", "var", "static", "templates"}
PUBLIC = ("services", "access")

# Rule 2, as it stood: a family reading another's models or internals. Frozen: never add to it.
ALLOWED = {
    "library/feed.py: programs.models",
    "library/scheduling.py: programs.models",
    "training/calendar.py: programs.models",
    "training/calendar.py: programs.workout_log",
    "training/forms.py: programs.workout_log",
    "training/imports.py: programs.workout_log",
    "training/management/commands/bench_tools.py: programs.demo_builders",
    "training/plan_adjust.py: programs.models",
    "training/selectors.py: programs.workout_log",
    "training/services.py: programs.workout_log",
    "training/tools/reads.py: programs.models",
    "training/tools/reschedule.py: programs.models",
    "training/tools/reschedule.py: programs.tools.lookups",
    "training/tools/schedule.py: programs.models",
    "training/tools/schedule.py: programs.workout_log",
    "training/tools/words.py: programs.models",
    "training/views.py: programs.workout_log",
    "training/whatif.py: programs.models",
    "training/whatif.py: programs.workout_log",
}


def families() -> set[str]:
    """The product's family apps: the installed apps the registry discovers (a toy family
    installed by a test under ``tests/`` is not the product's)."""
    return {
        module.__name__.split(".")[0]
        for module in declarations()
        if not module.__name__.startswith("tests.")
    }


def product_modules() -> list[Path]:
    return sorted(
        path
        for path in ROOT.rglob("*.py")
        if not SKIPPED.intersection(path.relative_to(ROOT).parts)
    )


def imported_modules(tree: ast.AST) -> list[str]:
    """Every absolute module an import names: ``from programs import services`` names
    ``programs.services``, ``from programs.models import Week`` names ``programs.models``."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            if "." in node.module:
                found.append(node.module)
            else:
                found += [f"{node.module}.{alias.name}" for alias in node.names]
    return found


def crossings(path: str, source: str, family_names: set[str]) -> tuple[set[str], set[str]]:
    """``(rule 1, rule 2)`` offences of the module at ``path`` (relative to the root): imports of
    a family from outside every family, and imports of another family's non-public module."""
    owner = path.split("/")[0]
    outside, private = set(), set()
    for name in imported_modules(ast.parse(source)):
        parts = name.split(".")
        family = parts[0]
        if family not in family_names or family == owner:
            continue
        depth = 3 if parts[1:2] == ["tools"] else 2  # a family's tools are a package
        entry = f"{path}: {'.'.join(parts[:depth])}"
        if owner not in family_names:
            outside.add(entry)
        elif not (len(parts) > 1 and parts[1] in PUBLIC):
            private.add(entry)
    return outside, private


def walk() -> tuple[set[str], set[str]]:
    names = families()
    outside, private = set(), set()
    for path in product_modules():
        relative = str(path.relative_to(ROOT))
        found = crossings(relative, path.read_text(), names)
        outside |= found[0]
        private |= found[1]
    return outside, private


def test_the_families_are_the_discovered_apps():
    assert families() == {"programs", "training", "library", "nutrition", "wellness", "media"}


def test_the_walk_sees_the_product_and_tells_each_rule():
    names = {str(path.relative_to(ROOT)) for path in product_modules()}
    assert {"chat/panel.py", "coach/plan.py", "programs/plan.py", "manage.py"} <= names
    assert not any(name.startswith("tests/") or "/migrations/" in name for name in names)
    fams = families()
    assert crossings("chat/x.py", "from programs.models import Program", fams) == (
        {"chat/x.py: programs.models"},
        set(),
    )
    assert crossings("coach/x.py", "import wellness.services", fams)[0] == {
        "coach/x.py: wellness.services"
    }
    assert crossings("training/x.py", "from programs import services, workout_log", fams) == (
        set(),
        {"training/x.py: programs.workout_log"},
    )
    assert crossings("library/x.py", "from programs.access import is_staff_reader", fams) == (
        set(),
        set(),
    )
    assert crossings(
        "programs/x.py", "from .models import Week\nfrom programs import demo", fams
    ) == (
        set(),
        set(),
    )


def test_no_module_outside_a_family_imports_it():
    outside, _ = walk()
    assert sorted(outside) == []


def test_a_family_imports_another_only_through_its_public_modules():
    _, private = walk()
    assert sorted(private - ALLOWED) == [], f"import the family's {' or '.join(PUBLIC)} instead"
    assert sorted(ALLOWED - private) == [], "fixed: remove these from ALLOWED"
