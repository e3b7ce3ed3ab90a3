"""Athletes for the roster's tests: a coach's athlete with a program of six weeks from four
Mondays ago (three sessions a week, Monday to Wednesday), logged up to a point, with activities
and readiness logs; each piece in a few bulk writes."""

from __future__ import annotations

import datetime

from django.db.models import F
from django.utils import timezone

from chat.models import Conversation, Message, PendingToolBatch
from programs.demo_builders import fill_program
from programs.models import Session
from tests.factories import ProgramFactory, UserFactory
from training.models import Activity
from wellness.models import ReadinessLog


def monday(day: datetime.date) -> datetime.date:
    return day - datetime.timedelta(days=day.weekday())


def athlete_with_plan(
    coach,
    *,
    today: datetime.date,
    username: str | None = None,
    missed: int = 0,
    readiness=(4, 2, 2),
):
    """An athlete of ``coach`` whose sessions before ``today`` are done but the last ``missed``;
    an activity of load 50 for each one done; readiness logged the last three days."""
    athlete = UserFactory(**({"username": username} if username else {}))
    program = ProgramFactory(
        athlete=athlete, coach=coach, start_date=monday(today) - datetime.timedelta(weeks=4)
    )
    fill_program(program=program, weeks=6, sessions=3, exercises=2)
    past = list(
        Session.objects.filter(week__program=program, scheduled_date__lt=today)
        .order_by("scheduled_date")
        .values_list("pk", "scheduled_date")
    )
    done = past[: len(past) - missed] if missed else past
    Session.objects.filter(pk__in=[pk for pk, _ in done]).update(
        completed=True, completed_date=F("scheduled_date"), duration=60
    )
    Activity.objects.bulk_create(
        Activity(
            athlete=athlete,
            sport="RUNNING",
            name="Run",
            start=datetime.datetime.combine(day, datetime.time(7), tzinfo=datetime.UTC),
            local_date=day,
            moving_s=3600,
            training_load=50.0,
            load_method="ESTIMATE",
            dedupe_key=f"roster:{athlete.pk}:{day}",
            session_id=pk,
        )
        for pk, day in done
    )
    sleep, soreness, stress = readiness
    ReadinessLog.objects.bulk_create(
        ReadinessLog(
            athlete=athlete,
            logged_on=today - datetime.timedelta(days=n),
            sleep_quality=sleep,
            soreness=soreness,
            stress=stress,
        )
        for n in range(3)
    )
    return athlete


def conversation_of(athlete) -> Conversation:
    program = athlete.programs.order_by("-created_at").first()
    return Conversation.objects.create(athlete=athlete, program=program)


def waiting_batch(athlete, *, hours_ago: float = 0) -> PendingToolBatch:
    """A batch awaiting the coach's review, sent ``hours_ago``."""
    conversation = conversation_of(athlete)
    batch = PendingToolBatch.objects.create(
        conversation=conversation,
        status=PendingToolBatch.BatchStatus.AWAITING_REVIEW,
        needs_review=True,
        program_version=conversation.program.version,
    )
    if hours_ago:
        PendingToolBatch.objects.filter(pk=batch.pk).update(
            created_at=timezone.now() - datetime.timedelta(hours=hours_ago)
        )
    return batch


def athlete_message(athlete, text: str) -> Message:
    return Message.objects.create(
        conversation=conversation_of(athlete), role=Message.Role.USER, content=text
    )
