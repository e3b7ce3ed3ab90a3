"""Needs-attention flags: each rule on its evidence, idempotent, resolved and snoozed with who
and when, a condition that ends clears itself, a snooze wakes up."""

import datetime

import pytest
from django.utils import timezone

from programs.models import Session, SetResult
from roster import services
from roster.models import Flag, FlagAction, FlagKind, FlagStatus
from tests.factories import CoachFactory, ExerciseFactory
from tests.roster.builders import athlete_message, athlete_with_plan, waiting_batch
from training.models import Activity
from wellness.models import CareLog, MoodLog, ReadinessLog

pytestmark = pytest.mark.django_db


@pytest.fixture
def today():
    return timezone.localdate()


@pytest.fixture
def coach():
    return CoachFactory()


def kinds(athlete) -> list[str]:
    return sorted(
        Flag.objects.filter(athlete=athlete, status="open").values_list("kind", flat=True)
    )


def test_an_athlete_on_plan_raises_no_flag(coach, today):
    athlete = athlete_with_plan(coach, today=today)
    services.compute_flags(today=today)
    assert kinds(athlete) == []


def test_two_missed_sessions_in_a_week_raise_one_flag_naming_them(coach, today):
    athlete = athlete_with_plan(coach, today=today, missed=3)
    services.compute_flags(today=today)
    flag = Flag.objects.get(athlete=athlete, kind=FlagKind.MISSED)
    assert flag.summary.endswith("missed in the last 7 days")
    assert flag.excerpt.count("Session") >= 2


def test_computing_twice_makes_no_second_flag(coach, today):
    athlete = athlete_with_plan(coach, today=today, missed=3)
    first = services.compute_flags(today=today)
    again = services.compute_flags(today=today)
    assert first.created >= 1 and again.created == 0
    assert Flag.objects.filter(athlete=athlete, kind=FlagKind.MISSED).count() == 1


def test_pain_words_in_a_set_note_an_activity_a_wellness_log_and_a_chat_message(coach, today):
    athlete = athlete_with_plan(coach, today=today)
    session = athlete.programs.get().weeks.first().sessions.first()
    SetResult.objects.create(
        exercise=ExerciseFactory(session=session, name="Back Squat"),
        set_number=1,
        notes="Left knee is sore.",
    )
    activity = Activity.objects.filter(athlete=athlete).first()
    Activity.objects.filter(pk=activity.pk).update(local_date=today, notes="Shin pain at 5 km")
    ReadinessLog.objects.filter(athlete=athlete, logged_on=today).update(note="Feeling sick")
    CareLog.objects.create(
        athlete=athlete, log_type="injury", title="Sprained ankle", occurred_at=timezone.now()
    )
    athlete_message(athlete, "My back hurts since yesterday, should I rest?")
    services.compute_flags(today=today)
    pain = Flag.objects.filter(athlete=athlete, kind=FlagKind.PAIN)
    assert {f.evidence_key.split(":")[0] for f in pain} == {
        "setresult",
        "activity",
        "readinesslog",
        "carelog",
        "message",
    }
    assert (
        pain.get(evidence_key__startswith="setresult").excerpt == "Back Squat: Left knee is sore."
    )
    assert pain.get(evidence_key__startswith="message").source == "chat message"


def test_low_form_raises_a_flag(coach, today, settings):
    athlete = athlete_with_plan(coach, today=today)
    Activity.objects.filter(athlete=athlete).delete()
    Activity.objects.bulk_create(
        Activity(
            athlete=athlete,
            sport="RUNNING",
            start=timezone.now(),
            local_date=today - datetime.timedelta(days=n),
            training_load=300.0,
            load_method="ESTIMATE",
            dedupe_key=f"hard:{n}",
        )
        for n in range(1, 6)
    )
    services.compute_flags(today=today)
    assert FlagKind.FORM in kinds(athlete)


def test_a_weekly_load_jump_above_the_threshold_raises_a_flag(coach, today):
    athlete = athlete_with_plan(coach, today=today)
    Activity.objects.filter(athlete=athlete).delete()
    last_monday = today - datetime.timedelta(days=today.weekday() + 7)
    loads = [(last_monday - datetime.timedelta(days=7), 100.0), (last_monday, 140.0)]
    Activity.objects.bulk_create(
        Activity(
            athlete=athlete,
            sport="RUNNING",
            start=timezone.now(),
            local_date=day,
            training_load=load,
            load_method="ESTIMATE",
            dedupe_key=f"w:{day}",
        )
        for day, load in loads
    )
    services.compute_flags(today=today)
    flag = Flag.objects.get(athlete=athlete, kind=FlagKind.LOAD_JUMP)
    assert "up 40 %" in flag.summary


def test_low_readiness_three_days_running_raises_a_flag_and_two_do_not(coach, today):
    low = athlete_with_plan(coach, today=today, readiness=(1, 5, 5))
    two = athlete_with_plan(coach, today=today, readiness=(1, 5, 5))
    ReadinessLog.objects.filter(athlete=two, logged_on=today - datetime.timedelta(days=2)).update(
        sleep_quality=5, soreness=1, stress=1
    )
    services.compute_flags(today=today)
    assert FlagKind.READINESS in kinds(low)
    assert FlagKind.READINESS not in kinds(two)


def test_the_crisis_path_raises_a_flag(coach, today):
    athlete = athlete_with_plan(coach, today=today)
    MoodLog.objects.create(athlete=athlete, mood="crisis", logged_on=today)
    services.compute_flags(today=today)
    assert FlagKind.CRISIS in kinds(athlete)


def test_a_proposal_waiting_more_than_a_day_raises_a_flag_and_a_fresh_one_does_not(coach, today):
    old = athlete_with_plan(coach, today=today)
    fresh = athlete_with_plan(coach, today=today)
    waiting_batch(old, hours_ago=30)
    waiting_batch(fresh, hours_ago=2)
    services.compute_flags(today=today)
    assert FlagKind.REVIEW in kinds(old)
    assert FlagKind.REVIEW not in kinds(fresh)


def test_no_activity_for_a_week_raises_a_flag(coach, today):
    athlete = athlete_with_plan(coach, today=today - datetime.timedelta(days=10))
    ReadinessLog.objects.filter(athlete=athlete).delete()
    services.compute_flags(today=today)
    assert FlagKind.INACTIVE in kinds(athlete)


def test_the_thresholds_are_settings(coach, today, settings):
    athlete = athlete_with_plan(coach, today=today, missed=3)
    settings.ROSTER_MISSED_SESSIONS = 10
    services.compute_flags(today=today)
    assert FlagKind.MISSED not in kinds(athlete)


def test_resolve_records_who_and_when_and_the_flag_stays_resolved(coach, today):
    athlete = athlete_with_plan(coach, today=today, missed=3)
    services.compute_flags(today=today)
    flag = Flag.objects.get(athlete=athlete, kind=FlagKind.MISSED)
    services.resolve(flag_id=flag.pk, actor=coach, note="Talked to them")
    flag.refresh_from_db()
    assert (flag.status, flag.decided_by) == (FlagStatus.RESOLVED, coach)
    action = FlagAction.objects.get(flag=flag)
    assert (action.action, action.actor, action.note) == ("resolved", coach, "Talked to them")
    services.compute_flags(today=today)
    assert Flag.objects.filter(athlete=athlete, kind=FlagKind.MISSED).count() == 1
    assert kinds(athlete) == []


def test_snooze_hides_a_flag_until_its_day_then_it_wakes(coach, today):
    athlete = athlete_with_plan(coach, today=today, missed=3)
    services.compute_flags(today=today)
    flag = Flag.objects.get(athlete=athlete, kind=FlagKind.MISSED)
    services.snooze(flag_id=flag.pk, actor=coach, days=3)
    assert kinds(athlete) == []
    services.compute_flags(today=today + datetime.timedelta(days=3))
    flag.refresh_from_db()
    actions = list(flag.actions.values_list("action", "actor"))
    assert actions[0] == ("snoozed", coach.pk)
    assert ("woke", None) in actions


def test_a_bad_snooze_changes_nothing(coach, today):
    athlete = athlete_with_plan(coach, today=today, missed=3)
    services.compute_flags(today=today)
    flag = Flag.objects.get(athlete=athlete, kind=FlagKind.MISSED)
    with pytest.raises(services.FlagActionError, match="1 to 60 days"):
        services.snooze(flag_id=flag.pk, actor=coach, days=0)
    flag.refresh_from_db()
    assert flag.status == FlagStatus.OPEN and not flag.actions.exists()


def test_a_condition_that_ends_clears_its_flag_but_a_pain_note_stays(coach, today):
    athlete = athlete_with_plan(coach, today=today, missed=3)
    athlete_message(athlete, "knee pain")
    services.compute_flags(today=today)
    Session.objects.filter(week__program__athlete=athlete).update(completed=True)
    done = services.compute_flags(today=today)
    assert done.cleared == 1
    missed = Flag.objects.get(athlete=athlete, kind=FlagKind.MISSED)
    assert missed.status == FlagStatus.CLEARED
    assert missed.actions.get().actor is None
    assert kinds(athlete) == [FlagKind.PAIN]


def test_another_coach_cannot_resolve_or_snooze(coach, today):
    athlete = athlete_with_plan(coach, today=today, missed=3)
    services.compute_flags(today=today)
    flag = Flag.objects.get(athlete=athlete, kind=FlagKind.MISSED)
    other = CoachFactory()
    athlete_with_plan(other, today=today)
    with pytest.raises(Flag.DoesNotExist):
        services.resolve(flag_id=flag.pk, actor=other)
    with pytest.raises(Flag.DoesNotExist):
        services.snooze(flag_id=flag.pk, actor=other, days=2)
    flag.refresh_from_db()
    assert flag.status == FlagStatus.OPEN


def test_a_condition_whose_anchor_moves_keeps_its_one_flag(coach, today):
    athlete = athlete_with_plan(coach, today=today, missed=3)
    services.compute_flags(today=today)
    flag = Flag.objects.get(athlete=athlete, kind=FlagKind.MISSED)
    Flag.objects.filter(pk=flag.pk).update(evidence_key="missed:0")  # as if the run began earlier
    done = services.compute_flags(today=today)
    assert (done.created, done.cleared) == (0, 0)
    assert Flag.objects.filter(athlete=athlete, kind=FlagKind.MISSED).count() == 1
