"""``manage.py bench_tokens``: prompt tokens per turn, measured through the real budget."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from chat.models import Conversation, Message

pytestmark = pytest.mark.django_db


def test_bench_tokens_prints_the_first_turn_and_turns_under_budget_and_leaves_nothing():
    out = io.StringIO()
    call_command("bench_tokens", sizes="52", lengths="10,300", contexts="8000", stdout=out)
    text = out.getvalue()
    first = next(line for line in text.splitlines() if line.strip().startswith("52 "))
    whole, tools, program_tools_only = (int(v.replace(",", "")) for v in first.split()[1:4])
    assert program_tools_only <= 6000 < whole  # the goal's twelve tools; every family costs more
    assert tools < whole
    rows = [line.split() for line in text.splitlines() if line.strip()[:3] in ("10 ", "300")]
    assert [row[0] for row in rows] == ["10", "300"]
    assert all(row[-1] == "yes" for row in rows)
    assert "prompt budget 6,720" in text
    assert not Conversation.objects.exists() and not Message.objects.exists()
