"""``manage.py bench_understand`` understands eval sentences on the demo data and prints the
figures (not a timed assertion: the machine's load is not the code's)."""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import call_command

from chat.management.commands.bench_understand import eval_sentences
from programs.models import Program

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_eval_sentences_are_read_from_the_eval_files():
    said = eval_sentences()
    assert "swap squats for lunges" in said
    assert len(said) == len(set(said)) > 100


def test_it_prints_median_and_p99_for_the_sentences_and_keeps_nothing():
    out = io.StringIO()
    call_command("bench_understand", sentences=4, slowest=2, stdout=out)
    text = out.getvalue()
    assert "4 sentences × 1 on the demo data" in text
    assert re.search(r"median \d+\.\d ms, p95 \d+\.\d ms, p99 \d+\.\d ms", text)
    assert re.search(r"cpu: median \d+\.\d ms", text)
    assert len(re.findall(r"^\s+\d+\.\d ms  \S", text, re.M)) == 2
    assert not Program.objects.exists()  # the demo data was rolled back
