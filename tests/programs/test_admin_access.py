"""The coach admin, who sees and reaches what: a coach's changelists and change pages are scoped
to their own programs (another coach's answer 404), superusers see all, the staff group reads all
but saves nothing, the groups grant the documented permissions, and a coach's foreign-key choices
on add forms are their own."""

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse

from programs.admin import COACHES_GROUP, STAFF_GROUP, ensure_coach_group, ensure_staff_group
from programs.models import Exercise, Program, Week
from tests.factories import CardioBlockFactory, UserFactory
from tests.programs.admin_html import form_data
from tests.programs.admin_support import change_url, first_session

pytestmark = pytest.mark.django_db


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
