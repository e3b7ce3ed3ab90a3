"""Reminders fire once, at their local time in the athlete's time zone, as a coach message in the
chat, from a real Celery beat entry. The clock is frozen: ``timezone.now`` is pinned."""

import datetime
import zoneinfo

import pytest
from django.conf import settings
from django.utils import timezone

from chat import tasks
from chat.models import Conversation, Message
from config.celery import app
from tests.factories import ConversationFactory, UserFactory, build_program
from training.models import AthleteProfile
from wellness import services
from wellness.models import Reminder, ReminderDelivery

pytestmark = pytest.mark.django_db
UTC = datetime.UTC
PARIS = zoneinfo.ZoneInfo("Europe/Paris")


def in_paris(athlete):
    AthleteProfile.objects.update_or_create(athlete=athlete, defaults={"time_zone": "Europe/Paris"})


@pytest.fixture
def conversation(program):
    in_paris(program.athlete)
    return ConversationFactory(program=program)


@pytest.fixture
def clock(monkeypatch):
    """``clock(dt)`` freezes ``django.utils.timezone.now`` at ``dt``."""

    def freeze(moment: datetime.datetime) -> None:
        monkeypatch.setattr(timezone, "now", lambda: moment)

    return freeze


def reminder(athlete, *, at="08:00", days=(1, 2, 3, 4, 5, 6, 7), created=None):
    hours, minutes = at.split(":")
    r = services.create_reminder(
        athlete=athlete,
        title="Take creatine",
        time=datetime.time(int(hours), int(minutes)),
        days=list(days),
    )
    Reminder.all_objects.filter(pk=r.pk).update(
        created_at=created or datetime.datetime(2026, 11, 1, tzinfo=UTC)
    )
    return r


def posted(conversation):
    return list(Message.objects.filter(conversation=conversation, content__startswith="⏰"))


def test_the_beat_schedule_runs_the_delivery_task():
    entry = settings.CELERY_BEAT_SCHEDULE["deliver-reminders"]
    assert entry["task"] == "chat.tasks.deliver_reminders"
    assert entry["schedule"] <= 60
    assert "chat.tasks.deliver_reminders" in app.tasks


def test_a_reminder_fires_once_at_its_local_time(conversation, clock):
    reminder(conversation.athlete, at="08:00")
    # Monday 23 November 2026: 08:00 in Paris is 07:00 UTC.
    clock(datetime.datetime(2026, 11, 23, 6, 59, tzinfo=UTC))
    assert tasks.deliver_reminders() == 0
    clock(datetime.datetime(2026, 11, 23, 7, 0, tzinfo=UTC))
    assert tasks.deliver_reminders() == 1
    clock(datetime.datetime(2026, 11, 23, 7, 1, tzinfo=UTC))
    assert tasks.deliver_reminders() == 0
    clock(datetime.datetime(2026, 11, 23, 7, 20, tzinfo=UTC))
    assert tasks.deliver_reminders() == 0
    [message] = posted(conversation)
    assert message.role == "assistant" and message.status == "complete"
    assert message.content == "⏰ Reminder: Take creatine (08:00)" and message.is_visible
    # The next day it fires again, once.
    clock(datetime.datetime(2026, 11, 24, 7, 0, 30, tzinfo=UTC))
    assert tasks.deliver_reminders() == 1
    assert len(posted(conversation)) == 2
    assert ReminderDelivery.objects.count() == 2


def test_the_athletes_time_zone_decides_not_utc(conversation, program, clock):
    other = ConversationFactory()  # an athlete in UTC with the same 08:00 reminder
    reminder(conversation.athlete, at="08:00")
    reminder(other.athlete, at="08:00")
    clock(datetime.datetime(2026, 11, 23, 7, 0, tzinfo=UTC))  # 08:00 in Paris, 07:00 in UTC
    assert tasks.deliver_reminders() == 1
    assert len(posted(conversation)) == 1 and posted(other) == []
    clock(datetime.datetime(2026, 11, 23, 8, 0, tzinfo=UTC))  # 09:00 in Paris, 08:00 in UTC
    assert tasks.deliver_reminders() == 1
    assert len(posted(conversation)) == 1 and len(posted(other)) == 1


def test_only_on_its_days(conversation, clock):
    reminder(conversation.athlete, at="08:00", days=(2,))  # Tuesdays
    clock(datetime.datetime(2026, 11, 23, 7, 0, tzinfo=UTC))  # a Monday
    assert tasks.deliver_reminders() == 0
    clock(datetime.datetime(2026, 11, 24, 7, 0, tzinfo=UTC))  # a Tuesday
    assert tasks.deliver_reminders() == 1


def test_a_reminder_made_after_its_time_starts_tomorrow(conversation, clock):
    reminder(
        conversation.athlete,
        at="08:00",
        created=datetime.datetime(2026, 11, 23, 7, 10, tzinfo=UTC),  # 08:10 in Paris
    )
    clock(datetime.datetime(2026, 11, 23, 7, 15, tzinfo=UTC))
    assert tasks.deliver_reminders() == 0
    clock(datetime.datetime(2026, 11, 24, 7, 0, tzinfo=UTC))
    assert tasks.deliver_reminders() == 1


def test_a_deleted_or_paused_reminder_never_fires(conversation, clock):
    services.soft_delete(reminder(conversation.athlete))
    paused = reminder(conversation.athlete)
    Reminder.objects.filter(pk=paused.pk).update(active=False)
    clock(datetime.datetime(2026, 11, 23, 7, 0, tzinfo=UTC))
    assert tasks.deliver_reminders() == 0


def test_a_second_claim_of_the_same_day_is_refused(conversation):
    r = reminder(conversation.athlete)
    day = datetime.date(2026, 11, 23)
    assert services.claim_delivery(reminder=r, local_date=day) is True
    assert services.claim_delivery(reminder=r, local_date=day) is False


def test_after_a_new_program_the_reminder_goes_to_its_chat_not_the_read_only_old_one(
    conversation, clock
):
    athlete = conversation.athlete
    reminder(athlete, at="08:00")
    newer = build_program(athlete=athlete)
    # The old conversation is the most recently active one: a coach posted there last.
    Conversation.objects.filter(pk=conversation.pk).update(
        updated_at=datetime.datetime(2026, 11, 23, 6, 0, tzinfo=UTC)
    )
    clock(datetime.datetime(2026, 11, 23, 7, 0, tzinfo=UTC))
    assert tasks.deliver_reminders() == 1
    assert posted(conversation) == []
    current = Conversation.objects.get(athlete=athlete, program=newer)
    [message] = posted(current)
    assert message.content == "⏰ Reminder: Take creatine (08:00)"


def test_an_athlete_without_a_program_is_claimed_and_not_posted(db, clock):
    athlete = UserFactory()
    in_paris(athlete)
    reminder(athlete, at="08:00")
    clock(datetime.datetime(2026, 11, 23, 7, 0, tzinfo=UTC))
    assert tasks.deliver_reminders() == 0
    assert ReminderDelivery.objects.filter(reminder__athlete=athlete).count() == 1
    assert not Conversation.objects.filter(athlete=athlete).exists()
