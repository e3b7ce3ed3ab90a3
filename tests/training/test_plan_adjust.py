"""Realignment (seed 003): the missed-session rule, Realign's push from the first missed session to
today, the lighter days (fewer sets, lower loads, shorter cardio, 3 to 14 days), and the
realign_plan / lighten_plan tools that run the same calls."""

from __future__ import annotations

import datetime

import pytest

from programs.models import CardioBlock, Exercise, Session, Week
from tests.coach.tool_helpers import apply, call, preview, session_of
from tests.coach.training_helpers import dates, today_of
from tests.factories import UserFactory, build_program
from training import plan_adjust
from training.plan_adjust import PlanAdjustError

pytestmark = pytest.mark.django_db

D = datetime.timedelta


def program_around_today(*, weeks: int = 4, sessions: int = 3):
    """Week 1 two weeks ago, week 2 last seven days, weeks 3-4 ahead; sessions on each week's
    first days. The last week ends 2 weeks later than usual, so a push has room."""
    athlete = UserFactory()
    today = today_of(athlete)
    program = build_program(
        weeks=weeks, sessions=sessions, exercises=2, athlete=athlete, start_date=today - D(days=14)
    )
    last = Week.objects.get(program=program, position=weeks)
    Week.objects.filter(pk=last.pk).update(end_date=last.end_date + D(days=14))
    return program, today


def done(program, week, number, *, skipped=False):
    Session.objects.filter(week__program=program, week__position=week, position=number).update(
        **({"skipped": True} if skipped else {"completed": True})
    )


def missed_refs(program, today):
    return [s.ref for s in plan_adjust.missed_sessions(program_id=program.pk, today=today)]


# --- missed ----------------------------------------------------------------------------------


def test_missed_are_past_sessions_neither_completed_nor_skipped_since_the_last_one_done():
    program, today = program_around_today()
    # Nothing done yet: all six past sessions (weeks 1 and 2) are missed; today's and later aren't.
    assert missed_refs(program, today) == [
        f"week-{w}-session-{s}" for w in (1, 2) for s in (1, 2, 3)
    ]
    for number in (1, 2, 3):
        done(program, 1, number)
    assert missed_refs(program, today) == [
        "week-2-session-1",
        "week-2-session-2",
        "week-2-session-3",
    ]
    done(program, 2, 1, skipped=True)  # skipped on purpose is not missed, and resets the run
    assert missed_refs(program, today) == ["week-2-session-2", "week-2-session-3"]


def test_a_rest_day_is_never_missed():
    program, today = program_around_today()
    rest = session_of(program, 2, 2)
    Exercise.objects.filter(session=rest).delete()
    assert "week-2-session-2" not in missed_refs(program, today)
    CardioBlock.objects.create(session=rest, type="zone2", duration=30)
    assert "week-2-session-2" in missed_refs(program, today)


def test_realign_is_offered_from_three_missed_sessions_only():
    program, today = program_around_today()
    for number in (1, 2, 3):
        done(program, 1, number)
    assert plan_adjust.missed_summary(program_id=program.pk, today=today).offer_realign
    done(program, 2, 1)
    summary = plan_adjust.missed_summary(program_id=program.pk, today=today)
    assert summary.count == 2
    assert not summary.offer_realign


# --- realign ---------------------------------------------------------------------------------


def test_realign_pushes_from_the_first_missed_session_to_today_with_every_date_on_the_card():
    program, today = program_around_today()
    for number in (1, 2, 3):
        done(program, 1, number)
    before = dates(program)
    calls = plan_adjust.realign_calls(program_id=program.pk, today=today)
    assert [(c.name, c.arguments) for c in calls] == [
        (
            "reschedule_workout",
            {"workout_id": "week-2-session-1", "new_date": today.isoformat(), "strategy": "push"},
        )
    ]
    result = preview(program, *calls)
    assert result.success
    assert dates(program) == before  # a preview moves nothing
    shift = today - before["week-2-session-1"]
    assert shift == D(days=7)
    moves = {
        d["target"].split(":")[0]: (d["before"], d["after"]) for d in result.preview["details"]
    }
    moved = [ref for ref in before if ref.startswith(("week-2", "week-3", "week-4"))]
    assert len(moves) == len(moved) == 9
    for ref in moved:
        week, number = ref.split("-")[1], ref.split("-")[3]
        old, new = moves[f"Week {week}, Session {number}"]
        assert old.startswith(before[ref].isoformat())
        assert new.startswith((before[ref] + shift).isoformat())
    apply(program, *calls)
    after = dates(program)
    assert after["week-2-session-1"] == today
    assert all(after[r] == before[r] for r in before if r.startswith("week-1"))  # done: unmoved


def test_realign_with_nothing_missed_says_so():
    program, today = program_around_today()
    Session.objects.filter(week__program=program, scheduled_date__lt=today).update(completed=True)
    with pytest.raises(PlanAdjustError, match="nothing to realign"):
        plan_adjust.realign_calls(program_id=program.pk, today=today)


# --- lighter ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("load", "lighter"),
    [
        ("185 lbs", "165 lbs"),
        ("135 lbs", "120 lbs"),
        ("80 kg", "72.5 kg"),
        ("20 lb", "15 lb"),
        ("70% 1RM", "63% 1RM"),
        ("RPE 8", "RPE 7"),
        ("RIR 2", "RIR 3"),
        ("bodyweight", "bodyweight"),
    ],
)
def test_loads_go_down_about_ten_percent_in_their_own_terms(load, lighter):
    assert plan_adjust.lower_load(load) == lighter


@pytest.mark.parametrize(("sets", "fewer"), [(1, 1), (2, 1), (3, 2), (4, 3), (5, 3), (6, 4)])
def test_about_a_third_fewer_sets_never_below_one(sets, fewer):
    assert plan_adjust.fewer_sets(sets) == fewer


def test_lighter_days_cut_sets_and_loads_and_shorten_cardio_in_the_chosen_days_only():
    program, today = program_around_today()
    # Week 3 starts today: sessions today, +1, +2; week 4 at +7, +8, +9.
    CardioBlock.objects.create(session=session_of(program, 3, 2), type="zone2", duration=40)
    done(program, 3, 3)  # already done: left alone
    calls = plan_adjust.lighter_calls(program_id=program.pk, today=today, days=5)
    by_name = [(c.name, c.arguments) for c in calls]
    exercise_calls = [a for n, a in by_name if n == "modify_exercise"]
    assert {(a["weekNumber"], a["sessionNumber"]) for a in exercise_calls} == {(3, 1), (3, 2)}
    assert all(a["updates"] == {"workingSets": 2, "targetLoad": "120 lbs"} for a in exercise_calls)
    cardio = [a for n, a in by_name if n == "modify_session"]
    assert len(cardio) == 1 and cardio[0]["updates"]["cardio"]["duration"] == 30
    result = apply(program, *calls)
    assert result.success
    squat = Exercise.objects.get(session=session_of(program, 3, 1), position=1)
    assert (squat.working_sets, squat.target_load) == (2, "120 lbs")
    assert session_of(program, 3, 2).cardio.duration == 30
    later = Exercise.objects.get(session=session_of(program, 4, 1), position=1)
    assert (later.working_sets, later.target_load) == (3, "135 lbs")  # day 8: outside 5 days


@pytest.mark.parametrize("days", [2, 15, 0, "seven", None, True])
def test_lighter_days_outside_3_to_14_are_refused_naming_the_bounds(days):
    program, today = program_around_today()
    with pytest.raises(PlanAdjustError, match="3 to 14 days"):
        plan_adjust.lighter_calls(program_id=program.pk, today=today, days=days)


def test_lighter_days_with_nothing_to_lighten_say_so():
    program, today = program_around_today()
    Session.objects.filter(week__program=program, scheduled_date__gte=today).update(completed=True)
    with pytest.raises(PlanAdjustError, match="Nothing to make lighter"):
        plan_adjust.lighter_calls(program_id=program.pk, today=today, days=3)


# --- the tools -------------------------------------------------------------------------------


def test_realign_plan_tool_makes_the_same_moves_as_the_push():
    program, today = program_around_today()
    for number in (1, 2, 3):
        done(program, 1, number)
    push = preview(program, *plan_adjust.realign_calls(program_id=program.pk, today=today))
    tool = preview(program, call("realign_plan"))
    assert tool.success
    strip = [{k: v for k, v in d.items() if k != "toolCallId"} for d in tool.preview["details"]]
    assert strip == [
        {k: v for k, v in d.items() if k != "toolCallId"} for d in push.preview["details"]
    ]
    apply(program, call("realign_plan"))
    assert dates(program)["week-2-session-1"] == today


def test_lighten_plan_tool_lightens_and_checks_its_days():
    program, _ = program_around_today()
    result = apply(program, call("lighten_plan", days=3))
    assert result.success
    assert "Lighter next 3 days" in result.results[0].summary
    squat = Exercise.objects.get(session=session_of(program, 3, 1), position=1)
    assert (squat.working_sets, squat.target_load) == (2, "120 lbs")
    refused = preview(program, call("lighten_plan", days=20))
    assert not refused.success
    assert "14" in refused.results[0].errors[0].message


def test_realign_plan_tool_with_nothing_missed_is_a_validation_error():
    program, today = program_around_today()
    Session.objects.filter(week__program=program, scheduled_date__lt=today).update(completed=True)
    result = preview(program, call("realign_plan"))
    assert [e.code for e in result.results[0].errors] == ["VALIDATION_ERROR"]


def test_realign_that_would_pass_the_programs_end_is_refused_naming_how_far_it_can_push():
    program, _ = program_around_today()
    for number in (1, 2, 3):
        done(program, 1, number)
    last = Week.objects.get(program=program, position=4)
    Week.objects.filter(pk=last.pk).update(end_date=last.start_date + D(days=6))
    before = dates(program)
    result = preview(program, call("realign_plan"))
    assert not result.success
    message = result.results[0].errors[0].message
    assert "past the program's end" in message and "push by at most" in message
    assert dates(program) == before
