"""Who reaches the program editor, and what a crafted request gets: every new URL and POST, for
another coach's program (404, as every admin page), for the read-only Staff group (403), for an
athlete and for nobody (the admin's sign-in); ids of another program sent in the tree (refused,
nothing written anywhere); and two editors of one program at once (the second save is refused
with what changed, nothing is overwritten)."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import Group
from django.test import Client

from access.policy import STAFF_GROUP
from programs import services
from programs.admin import ensure_staff_group
from programs.editor import service
from programs.models import Exercise, Program, ProgramRevision, Session
from tests.factories import UserFactory
from tests.programs.editor_support import page_tree, send, url

pytestmark = pytest.mark.django_db

STEPS = ("", "preview", "apply")


def request(client, program, step):
    if step:
        return send(client, program, step, page_tree(program))
    return client.get(url(program))


def versions() -> dict[int, int]:
    return dict(Program.objects.values_list("pk", "version"))


@pytest.mark.parametrize("step", STEPS)
def test_another_coachs_program_is_not_found_on_every_editor_url(coach_client, other_program, step):
    before = versions()
    assert request(coach_client, other_program, step).status_code == 404
    assert versions() == before


@pytest.mark.parametrize("step", STEPS)
def test_staff_read_but_may_not_open_or_save_the_editor(client, own_program, step):
    staff = UserFactory(username="staff-sue", is_staff=True)
    staff.groups.add(ensure_staff_group())
    assert Group.objects.filter(name=STAFF_GROUP).exists()
    client.force_login(staff)
    assert request(client, own_program, step).status_code == 403


@pytest.mark.parametrize("step", STEPS)
def test_an_athlete_and_nobody_are_sent_to_sign_in(client, own_program, step):
    assert request(client, own_program, step).status_code == 302
    client.force_login(own_program.athlete)
    response = request(client, own_program, step)
    assert response.status_code == 302 and "/login/" in response["Location"]


@pytest.mark.parametrize("step", ("preview", "apply"))
def test_the_posts_refuse_get(coach_client, own_program, step):
    assert coach_client.get(url(own_program, step)).status_code == 405


def _crafted(own_program, other_program, how: str) -> dict:
    tree = page_tree(own_program)
    theirs = Exercise.objects.filter(session__week__program=other_program).first()
    their_session = Session.objects.filter(week__program=other_program).first()
    rows = tree["weeks"][0]["sessions"][0]["exercises"]
    if how == "their exercise":
        rows.append({"key": f"exercise-{theirs.pk}", "id": theirs.pk, "fields": rows[0]["fields"]})
    elif how == "their week":
        week = tree["weeks"][1]
        week["id"] = their_session.week_id
        week["key"] = f"week-{their_session.week_id}"
    elif how == "copy of their session":
        session = dict(tree["weeks"][0]["sessions"][0], key="new-1", id=None, exercises=[])
        session["copyOf"] = their_session.pk
        tree["weeks"][0]["sessions"].append(session)
    elif how == "key of their exercise":
        rows.append(dict(rows[0], key=f"exercise-{theirs.pk}", id=None))
    elif how == "same exercise twice":
        rows.append(dict(rows[0]))
    return tree


@pytest.mark.parametrize(
    "how",
    [
        "their exercise",
        "their week",
        "copy of their session",
        "key of their exercise",
        "same exercise twice",
    ],
)
@pytest.mark.parametrize("step", ("preview", "apply"))
def test_crafted_ids_are_refused_and_nothing_is_written(
    coach_client, own_program, other_program, how, step
):
    before = versions()
    their_names = sorted(
        Exercise.objects.filter(session__week__program=other_program).values_list("pk", "name")
    )
    response = send(coach_client, own_program, step, _crafted(own_program, other_program, how))
    assert response.status_code == 400
    assert "Bob" not in response.json()["html"]
    assert versions() == before
    assert (
        sorted(
            Exercise.objects.filter(session__week__program=other_program).values_list("pk", "name")
        )
        == their_names
    )
    assert ProgramRevision.objects.count() == 0


@pytest.mark.parametrize("body", [b"not json", b"[]", b'{"weeks": []}', b'{"version": "1"}'])
def test_a_body_that_is_not_the_program_is_refused(coach_client, own_program, body):
    response = coach_client.post(
        url(own_program, "apply"), data=body, content_type="application/json"
    )
    assert response.status_code == 400
    assert Program.objects.get(pk=own_program.pk).version == own_program.version


def test_two_editors_at_once_the_second_save_is_refused_with_what_changed(
    coach, coach_client, own_program
):
    client = Client()  # a second browser: the program's coach and a head coach (a superuser)
    client.force_login(UserFactory(username="head-coach", is_staff=True, is_superuser=True))
    first, second = page_tree(own_program), page_tree(own_program)
    first["weeks"][0]["sessions"][0]["exercises"][0]["fields"]["reps"] = "12"
    second["weeks"][0]["sessions"][0]["exercises"][0]["fields"]["reps"] = "3"
    second["weeks"][1]["sessions"][0]["fields"]["name"] = "Overwritten?"
    assert send(coach_client, own_program, "apply", first).json()["applied"]

    for step in ("preview", "apply"):
        answer = send(client, own_program, step, second).json()
        assert answer["stale"] and not answer["applied"]
        assert "The program changed since you opened the editor" in answer["html"]
        assert "coach-ann" in answer["html"]
        assert "reps 8-10 → 12" in answer["html"]
    exercise = Exercise.objects.get(pk=first["weeks"][0]["sessions"][0]["exercises"][0]["id"])
    assert exercise.reps == "12"
    assert not Session.objects.filter(name="Overwritten?").exists()
    assert ProgramRevision.objects.count() == 1


def test_a_save_landing_between_reading_and_locking_is_refused_too(
    coach_client, own_program, monkeypatch
):
    """The version is checked again under the program's lock (the engine's apply): a change
    written after the editor read the program and before it locked it still stops the save."""
    translate = service._translate

    def meanwhile(program, data):
        result = translate(program, data)
        services.object_update(obj=Program.objects.get(pk=program.pk), fields={"name": "Other"})
        return result

    monkeypatch.setattr(service, "_translate", meanwhile)
    tree = page_tree(own_program)
    tree["weeks"][0]["sessions"][0]["exercises"][0]["fields"]["reps"] = "12"
    answer = send(coach_client, own_program, "apply", tree).json()
    assert answer["stale"] and not answer["applied"]
    assert not Exercise.objects.filter(reps="12").exists()
    assert json.dumps(answer["problems"]) == "[]"


def test_user_text_is_escaped_on_the_page_and_in_the_preview(coach_client, own_program):
    hostile = '"><script>alert(1)</script>'
    Exercise.objects.filter(session__week__program=own_program).update(notes=hostile)
    page = coach_client.get(url(own_program)).content.decode()
    assert hostile not in page and "&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;" in page
    tree = page_tree(own_program)
    tree["weeks"][0]["sessions"][0]["exercises"][0]["fields"]["name"] = hostile
    html = send(coach_client, own_program, "preview", tree).json()["html"]
    assert "<script>" not in html and "&lt;script&gt;" in html
