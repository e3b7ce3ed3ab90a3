"""The coach admin: scoping to a coach's own programs, edits through the position services, and
exactly one version bump per save. POST data is read from the rendered change form, as a browser
would send it, then edited."""

import datetime

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from programs.admin import (
    COACHES_GROUP,
    STAFF_GROUP,
    PlacedRow,
    ensure_coach_group,
    ensure_staff_group,
    plan_order,
)
from programs.models import CardioBlock, Exercise, Program, Session, Week
from tests.factories import CardioBlockFactory, CoachFactory, UserFactory, build_program
from tests.programs.admin_html import form_data

pytestmark = pytest.mark.django_db


def make_coach(username: str):
    coach = CoachFactory(username=username)
    coach.groups.add(ensure_coach_group())
    return coach


@pytest.fixture
def coach():
    return make_coach("coach-ann")


@pytest.fixture
def other_coach():
    return make_coach("coach-bob")


@pytest.fixture
def own_program(coach):
    return build_program(weeks=2, sessions=3, exercises=4, coach=coach, name="Ann's block")


@pytest.fixture
def other_program(other_coach):
    return build_program(weeks=1, sessions=2, exercises=3, coach=other_coach, name="Bob's block")


@pytest.fixture
def coach_client(client, coach):
    client.force_login(coach)
    return client


def change_url(obj) -> str:
    return reverse(f"admin:programs_{obj._meta.model_name}_change", args=[obj.pk])


def page_data(client, obj) -> dict:
    response = client.get(change_url(obj))
    assert response.status_code == 200
    return form_data(response.content.decode(), form_id=f"{obj._meta.model_name}_form")


def post(client, obj, data):
    response = client.post(change_url(obj), data)
    if response.status_code == 200:  # the form came back with errors
        errors = [response.context["adminform"].form.errors]
        errors += [fs.formset.errors for fs in response.context["inline_admin_formsets"]]
        errors += [fs.formset.non_form_errors() for fs in response.context["inline_admin_formsets"]]
        raise AssertionError(f"The admin refused the form: {errors}")
    assert response.status_code == 302, response.status_code
    return response


def inline_index(data: dict, prefix: str, pk: int) -> int:
    for key, value in data.items():
        if key.startswith(f"{prefix}-") and key.endswith("-id") and value == str(pk):
            return int(key.split("-")[1])
    raise AssertionError(f"No {prefix} row with id {pk}")


def exercise_names(session) -> list[str]:
    return list(session.exercises.order_by("position").values_list("name", flat=True))


def positions(queryset) -> list[int]:
    return list(queryset.order_by("position").values_list("position", flat=True))


def first_session(program) -> Session:
    return Session.objects.get(week__program=program, week__position=1, position=1)


def version_of(program) -> int:
    return Program.objects.get(pk=program.pk).version


# --- who sees what ------------------------------------------------------------------------------


def test_coach_changelist_lists_only_the_programs_they_coach(
    coach_client, own_program, other_program
):
    response = coach_client.get(reverse("admin:programs_program_changelist"))
    assert response.status_code == 200
    listed = list(response.context["cl"].result_list)
    assert listed == [own_program]
    assert "Bob&#x27;s block" not in response.content.decode()


def test_coach_changelists_of_weeks_sessions_and_exercises_hide_another_coachs(
    coach_client, own_program, other_program
):
    for model, lookup in (
        ("week", "program"),
        ("session", "week__program"),
        ("exercise", "session__week__program"),
    ):
        response = coach_client.get(reverse(f"admin:programs_{model}_changelist"))
        assert response.status_code == 200
        programs = {obj.get_owner_object().pk for obj in response.context["cl"].result_list}
        assert programs == {own_program.pk}, model
        filtered = coach_client.get(
            reverse(f"admin:programs_{model}_changelist"),
            {f"{lookup}__id__exact": other_program.pk},
        )
        # Filtering by another coach's program is ignored or refused; it never lists its rows.
        assert filtered.status_code in (200, 302)
        if filtered.status_code == 200:
            listed = {obj.get_owner_object().pk for obj in filtered.context["cl"].result_list}
            assert other_program.pk not in listed


def test_another_coachs_program_change_view_answers_404_and_changes_nothing(
    coach_client, other_program
):
    url = change_url(other_program)
    assert coach_client.get(url).status_code == 404
    response = coach_client.post(url, {"name": "Hijacked"})
    assert response.status_code == 404
    assert Program.objects.get(pk=other_program.pk).name == "Bob's block"
    assert coach_client.get(url.replace("/change/", "/delete/")).status_code == 404
    assert coach_client.get(url.replace("/change/", "/history/")).status_code == 404


def test_another_coachs_week_session_and_exercise_pages_answer_404(coach_client, other_program):
    session = first_session(other_program)
    for obj in (session.week, session, session.exercises.first()):
        assert coach_client.get(change_url(obj)).status_code == 404
    assert Exercise.objects.filter(session=session).count() == 3


def test_superuser_sees_every_program(client, own_program, other_program):
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    response = client.get(reverse("admin:programs_program_changelist"))
    assert set(response.context["cl"].result_list) == {own_program, other_program}
    assert client.get(change_url(other_program)).status_code == 200


def test_staff_group_sees_every_program_read_only(client, own_program, other_program):
    staff = UserFactory(username="auditor", is_staff=True)
    staff.groups.add(ensure_staff_group())
    client.force_login(staff)
    response = client.get(reverse("admin:programs_program_changelist"))
    assert set(response.context["cl"].result_list) == {own_program, other_program}
    assert client.get(change_url(other_program)).status_code == 200
    assert client.post(change_url(other_program), {"name": "x"}).status_code == 403
    assert Program.objects.get(pk=other_program.pk).name == "Bob's block"


def test_ensure_groups_is_idempotent_and_grants_the_documented_permissions(db):
    ensure_coach_group()
    coaches = ensure_coach_group()
    staff = ensure_staff_group()
    assert Group.objects.filter(name__in=[COACHES_GROUP, STAFF_GROUP]).count() == 2
    coach_perms = set(coaches.permissions.values_list("codename", flat=True))
    assert {"change_exercise", "add_week", "delete_session", "view_program"} <= coach_perms
    assert "view_setresult" in coach_perms
    assert "change_setresult" not in coach_perms
    staff_perms = set(staff.permissions.values_list("codename", flat=True))
    assert staff_perms and all(p.startswith("view_") for p in staff_perms)
    assert "view_cardioblock" in staff_perms


# --- foreign-key choices and defaults -----------------------------------------------------------


def test_coach_adding_a_program_is_its_coach_and_picks_from_their_own_athletes(
    coach_client, coach, own_program, other_program
):
    response = coach_client.get(reverse("admin:programs_program_add"))
    form = response.context["adminform"].form
    assert list(form.fields["coach"].queryset) == [coach]
    assert form.initial["coach"] == coach.pk
    assert list(form.fields["athlete"].queryset) == [own_program.athlete]

    data = form_data(response.content.decode(), form_id="program_form")
    data.update(name="Next block", athlete=str(own_program.athlete.pk), start_date="2027-01-04")
    response = coach_client.post(reverse("admin:programs_program_add"), data)
    assert response.status_code == 302
    created = Program.objects.get(name="Next block")
    assert created.coach == coach
    assert created.version == 1


def test_coach_cannot_add_a_week_to_another_coachs_program(
    coach_client, own_program, other_program
):
    response = coach_client.get(reverse("admin:programs_week_add"))
    assert list(response.context["adminform"].form.fields["program"].queryset) == [own_program]
    response = coach_client.post(
        reverse("admin:programs_week_add"),
        {
            "program": other_program.pk,
            "phase": "Sneaky",
            "start_date": "2027-01-04",
            "end_date": "2027-01-10",
            "sessions-TOTAL_FORMS": "0",
            "sessions-INITIAL_FORMS": "0",
        },
    )
    assert response.status_code == 200  # the form comes back with an error
    assert "program" in response.context["adminform"].form.errors
    assert not Week.objects.filter(phase="Sneaky").exists()


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


def test_staff_can_read_a_session_page_with_its_inlines_but_not_save_it(client, own_program):
    staff = UserFactory(username="auditor", is_staff=True)
    staff.groups.add(ensure_staff_group())
    client.force_login(staff)
    session = first_session(own_program)
    CardioBlockFactory(session=session)
    response = client.get(change_url(session))
    assert response.status_code == 200
    assert "Back Squat" in response.content.decode()
    assert client.post(change_url(session), {"name": "x"}).status_code == 403
