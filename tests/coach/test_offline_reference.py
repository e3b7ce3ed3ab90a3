"""The offline commands reference, docs/offline-commands.md, is generated from what the families
declare (``manage.py docs_tools``): the committed file is what the declarations give today, each
family's help is in it, and a family installed later (the toy) appears with no other edit."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError

from coach.llm.offline import families
from coach.llm.offline.reference import offline_markdown
from tests.coach.test_discovery import toy_family  # noqa: F401  (a fixture)

COMMITTED = Path(settings.BASE_DIR) / "docs" / "offline-commands.md"


def test_the_committed_offline_reference_is_what_the_families_declare():
    assert COMMITTED.read_text(encoding="utf-8") == offline_markdown(), (
        "docs/offline-commands.md is out of date: run manage.py docs_tools"
    )


def test_every_family_command_of_the_help_is_in_the_reference():
    text = offline_markdown()
    for family in families.declared():
        for _, example in family.help:
            assert f"`{example.replace('|', chr(92) + '|')}` |" in text
    assert "rename exercise 1.2.3 to Goblet Squat" in text  # the program's, from its app


def test_a_new_family_and_its_sentences_are_in_the_reference(toy_family):  # noqa: F811
    text = offline_markdown()
    assert "## Toy\n" in text and "| Ping the toy | `toy ping` |" in text
    assert "| `toy_rename` | `call me {name}` |" in text


def test_docs_tools_check_fails_when_the_offline_reference_drifted(tmp_path):
    output, offline = tmp_path / "tools.md", tmp_path / "offline-commands.md"
    call_command("docs_tools", output=output, offline_output=offline)
    assert offline.read_text(encoding="utf-8") == offline_markdown()
    offline.write_text(offline_markdown() + "\nedited by hand\n", encoding="utf-8")
    with pytest.raises(CommandError, match=r"offline-commands\.md is out of date"):
        call_command("docs_tools", "--check", output=output, offline_output=offline)
