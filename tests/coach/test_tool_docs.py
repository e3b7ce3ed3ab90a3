"""The tool reference, docs/tools.md, is generated from the registry (``manage.py docs_tools``) and
the committed file is what the registry gives today, so it can't drift."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError

from coach.registry import FAMILIES, tool_definitions
from coach.tool_docs import tools_markdown

COMMITTED = Path(settings.BASE_DIR) / "docs" / "tools.md"


def test_the_committed_tool_reference_is_what_the_registry_gives():
    assert COMMITTED.read_text(encoding="utf-8") == tools_markdown(), (
        "docs/tools.md is out of date: run manage.py docs_tools"
    )


def test_every_tool_has_a_row_and_a_section_under_its_family():
    text = tools_markdown()
    for definition in tool_definitions():
        name = definition["name"]
        assert f"| [`{name}`](#{name}) |" in text
        assert f"### `{name}`" in text
    sections = [line for line in text.splitlines() if line.startswith("## ")]
    assert sections == [f"## {name}" for name in FAMILIES]


def test_arguments_show_types_bounds_defaults_and_nesting():
    text = tools_markdown()
    assert "| `weekNumber` | integer | yes | 1–520 |" in text
    assert (
        "| `weeks[].sessions[].exercises[].restSeconds` | integer | no | 0–3600; default `120` |"
        in text
    )
    assert "| `weeks` | list of objects | yes | 1–12 items |" in text
    assert "Remove a week · write · tier critical · confirmation Apply" in text
    assert "Log a medication or supplement · write · tier high · confirmation at once" in text


def test_docs_tools_writes_the_file_and_check_fails_when_it_drifted(tmp_path):
    output, offline = tmp_path / "tools.md", tmp_path / "offline-commands.md"
    call_command("docs_tools", output=output, offline_output=offline)
    assert output.read_text(encoding="utf-8") == tools_markdown()
    call_command("docs_tools", "--check", output=output, offline_output=offline)
    output.write_text(tools_markdown().replace("tier critical", "tier low"), encoding="utf-8")
    with pytest.raises(CommandError, match="out of date"):
        call_command("docs_tools", "--check", output=output, offline_output=offline)
