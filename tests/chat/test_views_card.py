"""The preview card's Edit, Save, Remove and Undo buttons through HTTP, and who may press them."""

import pytest
from django.test import Client
from django.urls import reverse

from chat import proposals, services
from chat.models import Message, PendingToolBatch
from tests.calls import MORE_SETS, RENAME
from tests.chat.helpers import first_exercise, propose
from tests.factories import UserFactory, build_program

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


@pytest.fixture
def athlete(program):
    return program.athlete


@pytest.fixture
def conversation(athlete):
    return services.conversation_for_athlete(athlete=athlete)


@pytest.fixture
def athlete_client(client, athlete):
    client.force_login(athlete)
    return client


@pytest.fixture
def batch(conversation):
    return propose(conversation, RENAME, MORE_SETS)


def edit_url(batch, call_id="call_1"):
    return reverse("chat:call_edit", args=[batch.pk, call_id])


def test_the_card_has_an_item_per_call_with_edit_and_remove(athlete_client, batch):
    page = athlete_client.get("/").content.decode()
    assert page.count('data-call="') == 2
    assert page.count(">Edit</button>") == 2 and page.count(">Remove</button>") == 2
    assert "Change an exercise" in page


def test_edit_opens_the_fields_in_place(athlete_client, batch):
    form = athlete_client.get(edit_url(batch), headers=HX).content.decode()
    assert 'name="f:updates.name"' in form and 'value="Goblet Squat"' in form
    assert "weekNumber" not in form  # references are shown, not edited


def test_save_re_previews_and_apply_binds_to_the_edited_card(athlete_client, batch, program):
    response = athlete_client.post(
        edit_url(batch), {"revision": batch.revision, "f:updates.name": "Front Squat"}, headers=HX
    )
    assert response.status_code == 200
    assert "Front Squat" in response.content.decode()
    batch.refresh_from_db()
    response = athlete_client.post(
        reverse("chat:batch_apply", args=[batch.pk]), {"revision": batch.revision}, headers=HX
    )
    assert response.status_code == 200
    assert first_exercise(program).name == "Front Squat"
    assert "with your edits" in Message.objects.get(role="event").content


def test_an_invalid_value_shows_its_error_beside_the_field_and_changes_nothing(
    athlete_client, batch
):
    response = athlete_client.post(
        edit_url(batch, "call_2"),
        {"revision": batch.revision, "f:updates.workingSets": "many"},
        headers=HX,
    )
    assert response.status_code == 422
    body = response.content.decode()
    assert 'aria-invalid="true"' in body and "whole number" in body
    assert 'value="many"' in body
    batch.refresh_from_db()
    assert batch.revision == 1


def test_remove_drops_one_item(athlete_client, batch):
    response = athlete_client.post(
        reverse("chat:call_remove", args=[batch.pk, "call_1"]),
        {"revision": batch.revision},
        headers=HX,
    )
    assert response.status_code == 200
    batch.refresh_from_db()
    assert [c["id"] for c in batch.calls] == ["call_2"]


def test_undo_button_on_the_applied_event_restores_the_program(athlete_client, batch, program):
    proposals.apply(batch_id=batch.pk, user=program.athlete, revision=batch.revision)
    page = athlete_client.get("/").content.decode()
    assert ">Undo</button>" in page
    response = athlete_client.post(reverse("chat:batch_undo", args=[batch.pk]), headers=HX)
    assert response.status_code == 200
    assert "You undid 2 changes" in response.content.decode()
    assert first_exercise(program).name == "Back Squat"
    assert ">Undo</button>" not in athlete_client.get("/").content.decode()


@pytest.fixture
def intruder_client(db):
    client = Client()
    client.force_login(build_program(weeks=1, sessions=1, exercises=1).athlete)
    return client


@pytest.mark.parametrize("name", ["call_edit", "call_remove", "batch_undo"])
def test_another_athletes_card_buttons_are_404(intruder_client, batch, name, program):
    args = [batch.pk] if name == "batch_undo" else [batch.pk, "call_1"]
    response = intruder_client.post(
        reverse(f"chat:{name}", args=args),
        {"revision": batch.revision, "f:updates.name": "Hacked"},
        headers=HX,
    )
    assert response.status_code == 404
    batch.refresh_from_db()
    assert batch.revision == 1 and first_exercise(program).name == "Back Squat"


def test_after_the_program_is_given_to_another_athlete_the_former_one_reaches_nothing(
    athlete_client, conversation, batch, program
):
    program.athlete = UserFactory()
    program.save()
    post = athlete_client.post(
        reverse("chat:message_send", args=[conversation.pk]), {"text": "hi"}, headers=HX
    )
    assert post.status_code == 404
    apply = athlete_client.post(
        reverse("chat:batch_apply", args=[batch.pk]), {"revision": batch.revision}, headers=HX
    )
    assert apply.status_code == 404
    assert first_exercise(program).name == "Back Squat"
    assert PendingToolBatch.objects.get(pk=batch.pk).status == "pending"
