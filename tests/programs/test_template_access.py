"""Who reaches a template's pages, with crafted ids for every URL and POST: another coach's
template is not found (404) on each, the read-only Staff group may not act (403), an athlete and
nobody are sent to sign in; a coach can't assign to an athlete they don't coach, can't save
another coach's program as a template, and can't name another template's assignment in a dry
run or an apply. Nothing is written by any refused request."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse

from programs.admin import COACHES_GROUP, ensure_staff_group
from programs.admin.groups import refresh_groups
from programs.models import Exercise, Program, ProgramTemplate, TemplateAssignment
from programs.plan_templates.trees import record_version
from tests.factories import UserFactory, build_program
from tests.programs.admin_support import make_coach
from tests.programs.template_support import (
    MONDAY,
    athletes_of_coach,
    edit_template,
    give,
    template_of,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def ann():
    return make_coach("coach-ann")


@pytest.fixture
def bob():
    return make_coach("coach-bob")


@pytest.fixture
def bobs(bob):
    """Bob's template, assigned to one of his athletes and edited since."""
    template = template_of(bob)
    (athlete,) = athletes_of_coach(bob, 1, prefix="bobs")
    (assignment,) = give(template, bob, [athlete], [MONDAY])

    def change(tree):
        tree["weeks"][0]["sessions"][0]["exercises"][0]["fields"]["reps"] = "2"

    edit_template(template, bob, change)
    record_version(template)
    return template, assignment


def state() -> tuple:
    return (
        dict(Program.objects.values_list("pk", "version")),
        list(Exercise.objects.order_by("pk").values_list("pk", "reps")),
        list(TemplateAssignment.objects.order_by("pk").values_list("pk", "version_id")),
        ProgramTemplate.objects.count(),
    )


def requests(template, assignment):
    def url(name, *args):
        return reverse(f"admin:programs_programtemplate_{name}", args=[template.pk, *args])

    tree = {"version": template.program.version, "weeks": []}
    return [
        ("get", reverse("admin:programs_programtemplate_change", args=[template.pk]), None),
        ("get", url("editor"), None),
        ("json", url("editor_preview"), tree),
        ("json", url("editor_apply"), tree),
        ("get", url("assign"), None),
        (
            "post",
            url("assign"),
            {
                "athlete": [assignment.program.athlete_id],
                f"start-{assignment.program.athlete_id}": "2026-12-07",
            },
        ),
        ("get", url("propagation"), None),
        ("post", url("dry_run", assignment.pk), {}),
        (
            "post",
            url("propagate"),
            {
                "version": "2",
                "apply": [assignment.pk],
                f"seen-{assignment.pk}": assignment.program.version,
            },
        ),
    ]


def send(client, how, url, data):
    if how == "get":
        return client.get(url)
    if how == "json":
        return client.post(url, json.dumps(data), content_type="application/json")
    return client.post(url, data)


def test_another_coachs_template_is_not_found_on_every_url_and_nothing_changes(client, ann, bobs):
    client.force_login(ann)
    before = state()
    for how, url, data in requests(*bobs):
        assert send(client, how, url, data).status_code == 404, url
    assert state() == before


def test_staff_may_not_act_on_a_template(client, bobs):
    staff = UserFactory(username="staff-sue", is_staff=True)
    staff.groups.add(ensure_staff_group())
    client.force_login(staff)
    before = state()
    for how, url, data in requests(*bobs)[1:]:
        assert send(client, how, url, data).status_code == 403, url
    assert state() == before


def test_an_athlete_and_nobody_are_sent_to_sign_in(client, bobs):
    assignment = bobs[1]
    for user in (None, assignment.program.athlete):
        if user is not None:
            client.force_login(user)
        for how, url, data in requests(*bobs):
            response = send(client, how, url, data)
            assert response.status_code == 302 and "/login/" in response["Location"], url


def test_a_coach_cannot_assign_to_an_athlete_they_do_not_coach(client, ann, bobs):
    template = template_of(ann)
    client.force_login(ann)
    bobs_athlete = bobs[1].program.athlete
    before = state()
    response = client.post(
        reverse("admin:programs_programtemplate_assign", args=[template.pk]),
        {"athlete": [bobs_athlete.pk], f"start-{bobs_athlete.pk}": "2026-12-07"},
    )
    assert response.status_code == 400
    assert "only assign a template to athletes you coach" in response.content.decode()
    assert state() == before
    page = client.get(reverse("admin:programs_programtemplate_assign", args=[template.pk]))
    assert bobs_athlete.username not in page.content.decode()


def test_a_coach_cannot_save_another_coachs_program_as_a_template(client, ann, bob):
    theirs = build_program(weeks=1, sessions=1, exercises=1, coach=bob)
    client.force_login(ann)
    url = reverse("admin:programs_program_save_as_template", args=[theirs.pk])
    assert client.get(url).status_code == 404
    assert client.post(url, {"name": "Mine now"}).status_code == 404
    assert not ProgramTemplate.objects.filter(coach=ann).exists()


def test_another_templates_assignment_is_not_found_in_a_dry_run_or_an_apply(client, ann, bobs):
    mine = template_of(ann)
    (athlete,) = athletes_of_coach(ann, 1)
    give(mine, ann, [athlete], [MONDAY])
    _, theirs = bobs
    client.force_login(ann)
    before = state()
    dry = reverse("admin:programs_programtemplate_dry_run", args=[mine.pk, theirs.pk])
    assert client.post(dry).status_code == 404
    apply = reverse("admin:programs_programtemplate_propagate", args=[mine.pk])
    response = client.post(apply, {"version": "1", "apply": [theirs.pk], f"seen-{theirs.pk}": "1"})
    assert response.status_code == 404
    assert client.post(apply, {"version": "1", "apply": ["x"]}).status_code == 404
    assert state() == before


def test_the_templates_lists_show_only_the_coachs_own(client, ann, bobs):
    mine = template_of(ann)
    client.force_login(ann)
    page = client.get(reverse("admin:programs_programtemplate_changelist")).content.decode()
    assert f"/programtemplate/{mine.pk}/change/" in page
    assert f"/programtemplate/{bobs[0].pk}/change/" not in page


def test_another_coachs_template_program_is_not_found_by_its_program_id(client, ann, bobs):
    template = bobs[0]
    client.force_login(ann)
    before = state()
    for name in ("change", "history", "editor", "save_as_template"):
        url = reverse(f"admin:programs_program_{name}", args=[template.program_id])
        assert client.get(url).status_code == 404, name
    assert state() == before


def test_staff_may_not_save_a_program_as_a_template(client, ann):
    program = build_program(weeks=1, sessions=1, exercises=1, coach=ann)
    staff = UserFactory(username="staff-sue", is_staff=True)
    staff.groups.add(ensure_staff_group())
    client.force_login(staff)
    url = reverse("admin:programs_program_save_as_template", args=[program.pk])
    assert client.get(url).status_code == 403
    assert client.post(url, {"name": "Mine"}).status_code == 403
    assert not ProgramTemplate.objects.exists()


def test_a_migrate_gives_an_existing_coaches_group_the_template_permissions():
    group = Group.objects.create(name=COACHES_GROUP)
    refresh_groups()
    codenames = set(group.permissions.values_list("codename", flat=True))
    assert {"add_programtemplate", "change_programtemplate", "view_templateassignment"} <= codenames
    Group.objects.all().delete()
    refresh_groups()
    assert not Group.objects.exists()  # none is created
