"""The lifecycle and the engine name no family (issue 19, item 3): ``chat/proposals/`` and
``coach/engine.py`` import no family app, the lifecycle's states change in one module, and
recovery holds the agent's task by reference."""

from __future__ import annotations

import ast
from pathlib import Path

from django.conf import settings

from chat import recovery, tasks
from chat.models import Message
from tests.factories import ConversationFactory
from tests.test_module_imports import imported

ROOT = Path(settings.BASE_DIR)
FAMILIES = {"programs", "training", "library", "nutrition", "wellness", "media"}


def families_imported(path: Path) -> list[str]:
    tree = ast.parse(path.read_text())
    return [
        name for node in ast.walk(tree) for name in imported(node) if name.split(".")[0] in FAMILIES
    ]


def test_the_lifecycle_and_the_engine_import_no_family():
    paths = [*sorted((ROOT / "chat" / "proposals").glob("*.py")), ROOT / "coach" / "engine.py"]
    assert len(paths) > 5
    offenders = {str(p.relative_to(ROOT)): families_imported(p) for p in paths}
    assert {p: names for p, names in offenders.items() if names} == {}


def test_only_the_lifecycle_module_changes_a_batchs_status():
    writes = {}
    for path in sorted((ROOT / "chat").rglob("*.py")):
        if "migrations" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if (
                        isinstance(target, ast.Attribute)
                        and target.attr == "status"
                        and ast.unparse(target.value) == "batch"
                    ):
                        name = str(path.relative_to(ROOT))
                        writes[name] = writes.get(name, 0) + 1
    assert list(writes) == ["chat/proposals/lifecycle.py"]


def test_lifecycle_module_stays_under_400_lines():
    assert len((ROOT / "chat/proposals/lifecycle.py").read_text().splitlines()) < 400


def test_recovery_holds_the_agent_task_by_reference():
    assert recovery.agent_task() is tasks.run_agent


def test_a_run_goes_to_the_registered_task(monkeypatch, db):
    sent = []

    class Task:
        def delay(self, *args):
            sent.append(args)

    monkeypatch.setattr(recovery, "_AGENT", [])
    recovery.runs_agent(Task())
    placeholder = Message.objects.create(
        conversation=ConversationFactory(), role="assistant", status="pending"
    )
    assert recovery.send_run(placeholder) is True
    assert sent == [(placeholder.pk, placeholder.attempt)]
