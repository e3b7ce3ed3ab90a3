"""The engine knows no family (issue 19 items 1-2): the registry is filled by discovering each
installed app's ``tools`` declaration, so a toy family defined only under ``tests/toyfamily`` is
in the schema sent to the model, previews, applies through the proposal spine, is audited, shows
in the staff log and is undone, with no file outside its folder changed; and no module of
``coach/`` imports a family's tools."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import transaction
from django.test import modify_settings
from django.urls import reverse

from chat import proposals
from chat.agent import run_turn
from chat.models import PendingToolBatch, ToolCallRecord
from chat.services import message_send
from coach import registry
from coach.llm.offline import families as offline_families
from coach.llm.offline import understand
from coach.llm.offline.commands import help_text, split_commands
from coach.registry import FAMILIES, REGISTRY, catalog_lines, get_tool, tool_definitions
from coach.replies import split_replies
from programs.tools.offline import COMMANDS as PROGRAM_COMMANDS
from tests.chat.admin_helpers import logged_in, make_staff
from tests.chat.helpers import propose
from tests.chat.scripted_provider import ScriptedProvider
from tests.factories import ConversationFactory
from tests.llm.offline_support import ask

ROOT = Path(settings.BASE_DIR)
TOY = "tests.toyfamily"
PROGRAM_EXAMPLES = list(PROGRAM_COMMANDS.examples)


@pytest.fixture
def toy_family():
    """The toy family installed (last in INSTALLED_APPS) and discovered; the normal registry
    is back afterwards for the other tests."""
    try:
        with modify_settings(INSTALLED_APPS={"append": TOY}):
            registry.discover()
            offline_families.declared.cache_clear()
            understand.grammar.cache_clear()
            yield
    finally:
        registry.discover()
        offline_families.declared.cache_clear()
        understand.grammar.cache_clear()


def family_apps() -> set[str]:
    return {module.__name__.split(".")[0] for module in registry.declarations()}


# --- discovery ----------------------------------------------------------------------------------


def test_the_families_are_discovered_from_installed_apps_in_their_order():
    assert family_apps() == {"programs", "training", "library", "nutrition", "wellness", "media"}
    assert list(FAMILIES) == [
        "program",
        "schedule",
        "training",
        "library",
        "nutrition",
        "wellness",
        "media",
        "catalog",
    ]
    assert get_tool("recipe_create").execute.__module__ == "nutrition.tools.writes"


def test_a_toy_family_is_in_the_schema_sent_to_the_model_and_in_the_family_lines(toy_family):
    names = [tool["name"] for tool in tool_definitions()]
    # installed last: listed after every family, before use_tools (the catalog's own)
    assert names[-3:] == ["toy_ping", "toy_rename", registry.USE_TOOLS]
    assert FAMILIES["toy"].tool_names == ["toy_ping", "toy_rename"]
    assert "- toy: a toy family that only the tests install" in catalog_lines([])
    loader = get_tool(registry.USE_TOOLS).args_model.model_json_schema()
    assert "toy" in loader["properties"]["families"]["items"]["enum"]
    rename = next(t for t in tool_definitions(families=["toy"]) if t["name"] == "toy_rename")
    assert rename["input_schema"]["required"] == ["name"]


def test_rediscovery_after_the_toy_family_leaves_drops_it():
    with modify_settings(INSTALLED_APPS={"append": TOY}):
        registry.discover()
        assert "toy_ping" in REGISTRY
    registry.discover()
    assert "toy_ping" not in REGISTRY and "toy" not in FAMILIES


def test_the_offline_coach_understands_the_toy_family_from_its_declared_commands(toy_family):
    write = ask("toy rename to Sam")
    assert [(c.name, c.arguments) for c in write.tool_calls] == [("toy_rename", {"name": "Sam"})]
    assert "rename the toy to Sam" in write.text
    read = ask("toy ping")
    assert [c.name for c in read.tool_calls] == ["toy_ping"]
    assert "Here's what I'll change" not in read.text  # a read, known from the registry
    assert "Toy:\n- Ping the toy: toy ping\n- Rename the toy: toy rename to Sam" in help_text()


def test_the_offline_coach_understands_the_toy_tools_declared_sentences(toy_family):
    write = ask("Call me  Robin.")
    assert [(c.name, c.arguments) for c in write.tool_calls] == [("toy_rename", {"name": "Robin"})]
    read = ask("Who am I?")
    assert [c.name for c in read.tool_calls] == ["toy_ping"]
    assert "Here's what I'll change" not in read.text


def test_the_toy_familys_verbs_examples_and_replies_are_the_offline_coachs(toy_family):
    both = ask("toy ping and toy rename to Sam")
    assert [c.name for c in both.tool_calls] == ["toy_ping"]  # the read first, the change after
    assert split_commands("toy ping and toy rename to Sam") == ["toy ping", "toy rename to Sam"]
    assert split_replies(help_text())[1] == ["help", *PROGRAM_EXAMPLES, "toy ping"]
    assert ask("Show me the toy!").text.startswith("The toy is fine.")


def test_without_the_toy_family_its_verbs_and_replies_mean_nothing():
    assert split_commands("toy ping and toy rename to Sam") == ["toy ping and toy rename to Sam"]
    assert "toy ping" not in split_replies(help_text())[1]
    assert "didn't understand" in ask("Show me the toy").text


def test_a_declared_sentence_is_unknown_without_its_family():
    assert ask("call me Robin").tool_calls == []


def test_the_offline_coach_finds_the_families_commands_in_their_apps():
    modules = [c.parse.__module__ for c in offline_families.declared()]
    assert modules == [
        "programs.tools.offline",
        "training.tools.offline",
        "library.tools.offline",
        "nutrition.tools.offline",
        "wellness.tools.offline",
    ]
    assert "toy ping" not in help_text()


def test_a_tool_without_a_family_is_refused():
    spec = dataclasses.replace(get_tool("get_week"), category="")
    with pytest.raises(ImproperlyConfigured, match="belongs to a family"):
        registry._checked(spec)


# --- the spine ----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_toy_write_previews_applies_is_audited_shown_to_staff_and_undone(
    toy_family, program, client
):
    conversation = ConversationFactory(program=program)
    athlete = conversation.athlete
    athlete.first_name = "Alex"
    athlete.save(update_fields=["first_name"])

    batch = propose(conversation, ("call_toy", "toy_rename", {"name": "Sam"}))
    athlete.refresh_from_db()
    assert athlete.first_name == "Alex"  # previewed (a dry run), not written
    [change] = batch.preview["details"]
    assert change["fields"] == [{"field": "firstName", "oldValue": "Alex", "newValue": "Sam"}]

    batch.refresh_from_db()
    applied = proposals.apply(batch_id=batch.pk, user=athlete, revision=batch.revision)
    assert applied.outcome == "applied", applied.message
    athlete.refresh_from_db()
    assert athlete.first_name == "Sam"

    record = ToolCallRecord.objects.get(tool="toy_rename")
    assert record.status == ToolCallRecord.Status.APPLIED and record.batch_id == batch.pk
    logged_in(client, make_staff())
    listed = client.get(reverse("admin:chat_toolcallrecord_changelist"))
    assert record in listed.context["cl"].result_list
    page = client.get(reverse("admin:chat_toolcallrecord_change", args=[record.pk]))
    assert page.status_code == 200 and b"toy_rename" in page.content

    undone = proposals.undo(batch_id=batch.pk, user=athlete)
    assert undone.outcome == "undone", undone.message
    athlete.refresh_from_db()
    assert athlete.first_name == "Alex"


@pytest.mark.django_db
def test_a_toy_read_runs_in_the_turn_at_once_and_is_audited(toy_family, program):
    conversation = ConversationFactory(program=program)
    conversation.athlete.first_name = "Alex"
    conversation.athlete.save(update_fields=["first_name"])
    with transaction.atomic():
        _, placeholder = message_send(conversation=conversation, text="ping me")
    provider = ScriptedProvider().calls(("call_ping", "toy_ping", {})).text("Pong.")
    run_turn(placeholder=placeholder, provider=provider)
    record = ToolCallRecord.objects.get(tool="toy_ping")
    assert record.kind == ToolCallRecord.Kind.READ and "Alex" in str(record.result)
    assert not PendingToolBatch.objects.filter(conversation=conversation).exists()
    assert "Alex" in str(provider.requests[-1].turns)  # the result went back to the model


# --- where the tools live -----------------------------------------------------------------------


def _imported_modules(path: Path) -> set[str]:
    modules = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules.add(node.module)
            modules.update(f"{node.module}.{alias.name}" for alias in node.names)
    return modules


def test_no_module_of_coach_imports_a_familys_tools():
    families = family_apps()
    offenders = [
        f"{path.relative_to(ROOT)}: {module}"
        for path in sorted((ROOT / "coach").rglob("*.py"))
        for module in _imported_modules(path)
        if module.split(".")[0] in families and module.split(".")[1:2] == ["tools"]
    ]
    assert offenders == []


def test_coach_tools_holds_only_the_engine():
    assert sorted(p.name for p in (ROOT / "coach" / "tools").glob("*.py")) == [
        "__init__.py",
        "base.py",
        "catalog.py",
    ]
    engine_specs = [
        spec.name for spec in REGISTRY.values() if spec.execute.__module__.startswith("coach.")
    ]
    assert engine_specs == [registry.USE_TOOLS]
