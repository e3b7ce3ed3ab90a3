"""The coach admin, edits: saves go through the position services (moves, inserts, deletes and
renumbering of exercises, sessions, weeks and cardio blocks) with exactly one version bump per
save, and the ordering rule behind them. POST data is read from the rendered change form, as a
browser would send it, then edited."""

import datetime

import pytest
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from programs.admin import PlacedRow, plan_order
from programs.models import CardioBlock
from tests.factories import CardioBlockFactory
from tests.programs.admin_support import (
    change_url,
    exercise_names,
    first_session,
    inline_index,
    page_data,
    positions,
    post,
    version_of,
)

pytestmark = pytest.mark.django_db


# --- edits through the services, one version bump -----------------------------------------------


def test_editing_one_exercise_bumps_the_program_version_by_exactly_one(coach_client, own_program):
    exercise = first_session(own_program).exercises.get(position=2)
    before = version_of(own_program)
    data = page_data(coach_client, exercise)
    data["target_load"] = "205 lbs"
    post(coach_client, exercise, data)
    exercise.refresh_from_db()
    assert exercise.target_load == "205 lbs"
    assert exercise.position == 2
    assert version_of(own_program) == before + 1


def test_editing_an_exercise_in_the_session_inline_bumps_version_once(coach_client, own_program):
    session = first_session(own_program)
    before = version_of(own_program)
    data = page_data(coach_client, session)
    data["notes"] = "Brace hard."
    for pk in session.exercises.values_list("pk", flat=True)[:3]:
        data[f"exercises-{inline_index(data, 'exercises', pk)}-reps"] = "6"
    post(coach_client, session, data)
    assert version_of(own_program) == before + 1
    assert list(session.exercises.order_by("position").values_list("reps", flat=True)) == [
        "6",
        "6",
        "6",
        "8-10",
    ]


def test_saving_an_unchanged_page_does_not_bump_the_version(coach_client, own_program):
    session = first_session(own_program)
    before = version_of(own_program)
    post(coach_client, session, page_data(coach_client, session))
    assert version_of(own_program) == before


def test_version_is_read_only_in_the_program_form(coach_client, own_program):
    data = page_data(coach_client, own_program)
    assert "version" not in data
    data["version"] = "999"
    data["name"] = "Renamed block"
    post(coach_client, own_program, data)
    own_program.refresh_from_db()
    assert own_program.name == "Renamed block"
    assert own_program.version == 2


def test_swapping_exercises_1_and_3_in_the_admin_keeps_positions_contiguous(
    coach_client, own_program
):
    session = first_session(own_program)
    first, second, third, fourth = session.exercises.order_by("position")
    before = version_of(own_program)
    data = page_data(coach_client, session)
    data[f"exercises-{inline_index(data, 'exercises', first.pk)}-position"] = "3"
    data[f"exercises-{inline_index(data, 'exercises', third.pk)}-position"] = "1"
    post(coach_client, session, data)
    ordered = list(session.exercises.order_by("position"))
    assert [e.pk for e in ordered] == [third.pk, second.pk, first.pk, fourth.pk]
    assert positions(session.exercises) == [1, 2, 3, 4]
    assert version_of(own_program) == before + 1


def test_moving_an_exercise_down_shifts_the_ones_between_up(coach_client, own_program):
    session = first_session(own_program)
    first, second, third, fourth = session.exercises.order_by("position")
    data = page_data(coach_client, session)
    data[f"exercises-{inline_index(data, 'exercises', first.pk)}-position"] = "3"
    post(coach_client, session, data)
    assert list(session.exercises.order_by("position").values_list("pk", flat=True)) == [
        second.pk,
        third.pk,
        first.pk,
        fourth.pk,
    ]


def test_duplicate_and_out_of_range_positions_are_renumbered(coach_client, own_program):
    session = first_session(own_program)
    first, second, third, fourth = session.exercises.order_by("position")
    data = page_data(coach_client, session)
    data[f"exercises-{inline_index(data, 'exercises', fourth.pk)}-position"] = "1"
    data[f"exercises-{inline_index(data, 'exercises', second.pk)}-position"] = "40"
    post(coach_client, session, data)
    assert list(session.exercises.order_by("position").values_list("pk", flat=True)) == [
        fourth.pk,
        first.pk,
        third.pk,
        second.pk,
    ]
    assert positions(session.exercises) == [1, 2, 3, 4]


def test_adding_an_inline_exercise_without_a_position_appends_it(coach_client, own_program):
    session = first_session(own_program)
    before = version_of(own_program)
    data = page_data(coach_client, session)
    new = int(data["exercises-TOTAL_FORMS"]) - 1  # the extra, empty row
    assert data.get(f"exercises-{new}-id", "") == ""
    data.update(
        {
            f"exercises-{new}-name": "Face Pull",
            f"exercises-{new}-warmup_sets": "0",
            f"exercises-{new}-working_sets": "3",
            f"exercises-{new}-reps": "15",
            f"exercises-{new}-target_load": "30 lbs",
            f"exercises-{new}-rest_seconds": "60",
        }
    )
    post(coach_client, session, data)
    assert exercise_names(session)[-1] == "Face Pull"
    assert positions(session.exercises) == [1, 2, 3, 4, 5]
    assert version_of(own_program) == before + 1


def test_adding_an_inline_exercise_at_position_2_shifts_the_rest(coach_client, own_program):
    session = first_session(own_program)
    names = exercise_names(session)
    data = page_data(coach_client, session)
    new = int(data["exercises-TOTAL_FORMS"]) - 1
    data.update(
        {
            f"exercises-{new}-position": "2",
            f"exercises-{new}-name": "Box Jump",
            f"exercises-{new}-warmup_sets": "0",
            f"exercises-{new}-working_sets": "3",
            f"exercises-{new}-reps": "5",
            f"exercises-{new}-target_load": "bodyweight",
            f"exercises-{new}-rest_seconds": "90",
        }
    )
    post(coach_client, session, data)
    assert exercise_names(session) == [names[0], "Box Jump", *names[1:]]
    assert positions(session.exercises) == [1, 2, 3, 4, 5]


def test_deleting_an_inline_exercise_renumbers_the_ones_after_it(coach_client, own_program):
    session = first_session(own_program)
    second = session.exercises.get(position=2)
    names = exercise_names(session)
    before = version_of(own_program)
    data = page_data(coach_client, session)
    data[f"exercises-{inline_index(data, 'exercises', second.pk)}-DELETE"] = "on"
    post(coach_client, session, data)
    assert exercise_names(session) == [names[0], names[2], names[3]]
    assert positions(session.exercises) == [1, 2, 3]
    assert version_of(own_program) == before + 1


def test_deleting_one_exercise_and_moving_another_in_one_save(coach_client, own_program):
    session = first_session(own_program)
    first, second, third, fourth = session.exercises.order_by("position")
    data = page_data(coach_client, session)
    data[f"exercises-{inline_index(data, 'exercises', first.pk)}-DELETE"] = "on"
    data[f"exercises-{inline_index(data, 'exercises', fourth.pk)}-position"] = "1"
    post(coach_client, session, data)
    assert list(session.exercises.order_by("position").values_list("pk", flat=True)) == [
        fourth.pk,
        second.pk,
        third.pk,
    ]
    assert positions(session.exercises) == [1, 2, 3]


def test_reordering_weeks_in_the_program_inline(coach_client, own_program):
    week1, week2 = own_program.weeks.order_by("position")
    data = page_data(coach_client, own_program)
    data[f"weeks-{inline_index(data, 'weeks', week1.pk)}-position"] = "2"
    post(coach_client, own_program, data)
    assert list(own_program.weeks.order_by("position").values_list("pk", flat=True)) == [
        week2.pk,
        week1.pk,
    ]
    assert version_of(own_program) == 2


def test_reordering_sessions_in_the_week_inline(coach_client, own_program):
    week = own_program.weeks.get(position=1)
    s1, s2, s3 = week.sessions.order_by("position")
    data = page_data(coach_client, week)
    data[f"sessions-{inline_index(data, 'sessions', s3.pk)}-position"] = "1"
    post(coach_client, week, data)
    assert list(week.sessions.order_by("position").values_list("pk", flat=True)) == [
        s3.pk,
        s1.pk,
        s2.pk,
    ]


def test_session_warmup_is_edited_one_activity_per_line(coach_client, own_program):
    session = first_session(own_program)
    data = page_data(coach_client, session)
    data["warmup"] = "5 min bike\n\n  Band pull-aparts  \n"
    post(coach_client, session, data)
    session.refresh_from_db()
    assert session.warmup == ["5 min bike", "Band pull-aparts"]


def test_cardio_block_added_and_removed_in_the_session_inline(coach_client, own_program):
    session = first_session(own_program)
    data = page_data(coach_client, session)
    data.update(
        {
            "cardio-TOTAL_FORMS": "1",
            "cardio-0-type": "zone2",
            "cardio-0-duration": "40",
            "cardio-0-modality": "Cycling",
        }
    )
    post(coach_client, session, data)
    cardio = CardioBlock.objects.get(session=session)
    assert (cardio.type, cardio.duration, cardio.modality) == ("zone2", 40, "Cycling")
    assert version_of(own_program) == 2

    data = page_data(coach_client, session)
    data["cardio-0-DELETE"] = "on"
    post(coach_client, session, data)
    assert not CardioBlock.objects.filter(session=session).exists()
    assert version_of(own_program) == 3


def test_cardio_block_edit_keeps_the_row(coach_client, own_program):
    session = first_session(own_program)
    cardio = CardioBlockFactory(session=session, duration=30)
    data = page_data(coach_client, session)
    data["cardio-0-duration"] = "45"
    post(coach_client, session, data)
    assert CardioBlock.objects.get(pk=cardio.pk).duration == 45


def test_deleting_a_week_in_the_admin_renumbers_and_bumps(coach_client, own_program):
    week1 = own_program.weeks.get(position=1)
    week2 = own_program.weeks.get(position=2)
    url = reverse("admin:programs_week_delete", args=[week1.pk])
    response = coach_client.post(url, {"post": "yes"})
    assert response.status_code == 302
    assert list(own_program.weeks.values_list("pk", "position")) == [(week2.pk, 1)]
    assert version_of(own_program) == 2


def test_bulk_deleting_sessions_renumbers_each_week_and_bumps_once(coach_client, own_program):
    week = own_program.weeks.get(position=1)
    s1, s2, s3 = week.sessions.order_by("position")
    response = coach_client.post(
        reverse("admin:programs_session_changelist"),
        {"action": "delete_selected", "_selected_action": [s1.pk, s2.pk], "post": "yes"},
    )
    assert response.status_code == 302
    assert list(week.sessions.values_list("pk", "position")) == [(s3.pk, 1)]
    assert version_of(own_program) == 2


def test_adding_a_week_with_no_position_puts_it_at_the_end(coach_client, own_program):
    response = coach_client.post(
        reverse("admin:programs_week_add"),
        {
            "program": own_program.pk,
            "phase": "Deload",
            "start_date": "2026-11-16",
            "end_date": "2026-11-22",
            "sessions-TOTAL_FORMS": "0",
            "sessions-INITIAL_FORMS": "0",
        },
    )
    assert response.status_code == 302
    assert list(own_program.weeks.values_list("position", "phase")) == [
        (1, "Accumulation"),
        (2, "Accumulation"),
        (3, "Deload"),
    ]
    assert version_of(own_program) == 2


def test_week_dates_out_of_order_are_refused_with_a_message(coach_client, own_program):
    week = own_program.weeks.get(position=1)
    data = page_data(coach_client, week)
    data["end_date"] = (week.start_date - datetime.timedelta(days=1)).isoformat()
    response = coach_client.post(change_url(week), data)
    assert response.status_code == 200
    assert response.context["errors"]
    assert version_of(own_program) == 1


# --- the ordering rule --------------------------------------------------------------------------


def test_plan_order_moves_one_row_and_keeps_the_others_in_order():
    rows = [PlacedRow(key=k, old=k, requested=k) for k in (1, 2, 3, 4)]
    rows[0] = PlacedRow(key=1, old=1, requested=3)
    assert plan_order(rows) == [2, 3, 1, 4]


def test_plan_order_puts_new_rows_without_position_last_in_form_order():
    rows = [
        PlacedRow(key="new-a", old=None, requested=None),
        PlacedRow(key=1, old=1, requested=1),
        PlacedRow(key="new-b", old=None, requested=None),
        PlacedRow(key=2, old=2, requested=99),
    ]
    assert plan_order(rows) == [1, 2, "new-a", "new-b"]


@given(
    st.lists(st.one_of(st.none(), st.integers(min_value=1, max_value=12)), min_size=0, max_size=10),
    st.integers(min_value=0, max_value=3),
)
def test_plan_order_is_always_a_permutation_and_honours_unique_in_range_requests(
    requests, new_rows
):
    rows = [PlacedRow(key=i, old=i + 1, requested=r) for i, r in enumerate(requests)]
    rows += [PlacedRow(key=f"n{j}", old=None, requested=None) for j in range(new_rows)]
    ordered = plan_order(rows)
    assert sorted(map(str, ordered)) == sorted(str(row.key) for row in rows)
    assert ordered[len(ordered) - new_rows :] == [f"n{j}" for j in range(new_rows)]
    moved = [row for row in rows if row.requested is not None and row.requested != row.old]
    wanted = [row.requested for row in moved]
    limit = len(rows) - new_rows
    if len(set(wanted)) == len(wanted) and all(w <= limit for w in wanted):
        for row in moved:
            assert ordered[row.requested - 1] == row.key
    staying = [row.key for row in rows if row.old is not None and row not in moved]
    assert [key for key in ordered if key in staying] == staying


def test_moving_an_exercise_on_its_own_page_uses_the_move_service(coach_client, own_program):
    session = first_session(own_program)
    first, second, third, fourth = session.exercises.order_by("position")
    data = page_data(coach_client, first)
    assert "session" not in data  # the parent is fixed once created
    data["position"] = "3"
    post(coach_client, first, data)
    assert list(session.exercises.order_by("position").values_list("pk", flat=True)) == [
        second.pk,
        third.pk,
        first.pk,
        fourth.pk,
    ]
    assert version_of(own_program) == 2
