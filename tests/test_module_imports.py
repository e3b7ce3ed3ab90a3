"""What the product's modules import: nothing from tests/ (the benchmarks' fake model and FIT
writer live in the product: ``coach.llm.fake_server``, ``training.fit_writer``), and the project's
own apps only at a module's top, never inside a function."""

from __future__ import annotations

import ast
from pathlib import Path

from django.conf import settings

ROOT = Path(settings.BASE_DIR)
SKIPPED = {"tests", ".venv", ".git", "migrations", "node_modules", "var", "static", "templates"}
OUR_APPS = {
    name.split(".")[0] for name in settings.INSTALLED_APPS if (ROOT / name.split(".")[0]).is_dir()
} | {"config"}


def product_modules() -> list[Path]:
    return sorted(
        path
        for path in ROOT.rglob("*.py")
        if not SKIPPED.intersection(path.relative_to(ROOT).parts)
    )


def imported(node: ast.AST) -> list[str]:
    """The absolute module names an import statement names (relative imports give none)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom) and not node.level and node.module:
        return [node.module]
    return []


def imports_in_functions(tree: ast.Module) -> list[tuple[int, str]]:
    found = []
    for function in ast.walk(tree):
        if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            for node in ast.walk(function):
                found += [(node.lineno, name) for name in imported(node)]
    return found


def test_the_walk_sees_the_product_and_our_apps():
    names = {str(path.relative_to(ROOT)) for path in product_modules()}
    assert "chat/management/commands/bench_chat.py" in names
    assert "training/management/commands/bench_import.py" in names
    assert not any(name.startswith("tests/") for name in names)
    assert {"chat", "coach", "programs", "training", "config"} <= OUR_APPS


def test_no_product_module_imports_from_tests():
    offenders = [
        f"{path.relative_to(ROOT)}:{node.lineno} imports {name}"
        for path in product_modules()
        for node in ast.walk(ast.parse(path.read_text()))
        for name in imported(node)
        if name == "tests" or name.startswith("tests.")
    ]
    assert offenders == []


def test_no_product_module_imports_one_of_our_apps_inside_a_function():
    offenders = [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for path in product_modules()
        for line, name in imports_in_functions(ast.parse(path.read_text()))
        if name.split(".")[0] in OUR_APPS
    ]
    assert offenders == []
