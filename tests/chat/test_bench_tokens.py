"""``manage.py bench_tokens``: prompt tokens per turn, measured through the real budget."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from chat.models import Conversation, Message
from coach.registry import ALWAYS_SENT, FAMILIES

pytestmark = pytest.mark.django_db


def test_bench_tokens_prints_the_first_turn_and_turns_under_budget_and_leaves_nothing():
    out = io.StringIO()
    call_command("bench_tokens", sizes="52", lengths="10,300", contexts="8000", stdout=out)
    text = out.getvalue()
    first = next(line for line in text.splitlines() if line.strip().startswith("52 "))
    sent, tools, every_family = (int(v.replace(",", "")) for v in first.split()[1:4])
    assert tools < sent <= 6000 < every_family  # the goal; every family's schemas would cost more
    loads = {
        line.split()[0]: line.split()
        for line in text.split("loading a family")[1].split("\n\n")[0].splitlines()[2:]
    }
    # one row per family that use_tools can load
    assert set(loads) == set(FAMILIES) - set(ALWAYS_SENT)
    assert {"schedule", "training", "library", "nutrition"} <= set(loads)
    assert all(int(row[2].replace(",", "")) > sent for row in loads.values())
    rows = [line.split() for line in text.splitlines() if line.strip()[:3] in ("10 ", "300")]
    assert [row[0] for row in rows] == ["10", "300"]
    assert all(row[-1] == "yes" for row in rows)
    assert "prompt budget 6,720" in text
    assert not Conversation.objects.exists() and not Message.objects.exists()
