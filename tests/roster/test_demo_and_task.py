"""The roster's demo (a flagged athlete on top for the demo coach, idempotent) and its periodic
task (declared in the beat schedule, computing every coached athlete's flags)."""

from io import StringIO

import pytest
from django.conf import settings
from django.core.management import call_command
from django.utils import timezone

from chat.models import PendingToolBatch
from roster import tasks
from roster.models import Flag, FlagKind
from roster.rows import roster
from tests.chat.admin_helpers import make_coach
from tests.roster.builders import athlete_with_plan

pytestmark = pytest.mark.django_db


def seed() -> str:
    out = StringIO()
    call_command("seed_demo", stdout=out)
    return out.getvalue()


def test_the_demo_coach_finds_jamie_flagged_on_top_and_a_second_seed_adds_nothing():
    output = seed()
    assert "Created jamie" in output
    kinds = set(Flag.objects.filter(athlete__username="jamie").values_list("kind", flat=True))
    assert {FlagKind.MISSED, FlagKind.PAIN, FlagKind.REVIEW} <= kinds
    pain = Flag.objects.get(athlete__username="jamie", kind=FlagKind.PAIN)
    assert "Left knee is sore" in pain.excerpt
    waiting = PendingToolBatch.objects.get(conversation__athlete__username="jamie")
    assert waiting.status == PendingToolBatch.BatchStatus.AWAITING_REVIEW
    coach = waiting.conversation.program.coach
    rows, _ = roster(coach, today=timezone.localdate())
    assert [row.athlete.username for row in rows] == ["jamie", "athlete"]
    flags, batches = Flag.objects.count(), PendingToolBatch.objects.count()
    assert "Kept jamie" in seed()
    assert (Flag.objects.count(), PendingToolBatch.objects.count()) == (flags, batches)


def test_the_periodic_task_is_scheduled_and_computes_every_coached_athletes_flags():
    entry = settings.CELERY_BEAT_SCHEDULE["roster-flags"]
    assert entry["task"] == "roster.tasks.compute_flags"
    assert entry["schedule"] == settings.ROSTER_FLAGS_INTERVAL
    today = timezone.localdate()
    one = athlete_with_plan(make_coach("c1"), today=today, missed=3)
    two = athlete_with_plan(make_coach("c2"), today=today, missed=3)
    assert tasks.compute_flags.delay().get()["created"] == 2
    assert set(Flag.objects.values_list("athlete", flat=True)) == {one.pk, two.pk}
