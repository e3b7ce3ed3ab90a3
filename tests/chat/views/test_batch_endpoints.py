"""The batch card's Apply and Cancel endpoints, through Django's test client: applying, cancelling,
failures, stale revisions and plans, repeated clicks, refusals, and another athlete's batch.

htmx requests carry the ``HX-Request`` header; without it every endpoint still works as a plain
form post that redirects to the chat page.
"""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from chat import proposals
from chat.models import Message, PendingToolBatch
from programs.services import object_update, program_bump_version
from tests.chat.views.support import HX, first_exercise, make_batch, rename_call

# --- apply and cancel ---------------------------------------------------------------------------


def test_apply_changes_the_program_and_empties_the_card(athlete_client, conversation, program):
    batch = make_batch(conversation, [rename_call("Goblet Squat")])
    response = athlete_client.post(
        reverse("chat:batch_apply", args=[batch.pk]), {"revision": batch.revision}, headers=HX
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert first_exercise(program).name == "Goblet Squat"
    batch.refresh_from_db()
    assert batch.status == PendingToolBatch.BatchStatus.APPLIED
    assert html.lstrip().startswith(
        '<div id="batch-card" class="batch-region" hx-include="#program-version">'
    )
    assert "Apply Changes" not in html
    # the program panel is refreshed in place and shows the new name
    panel = html[html.index('<aside id="program-panel"') :]
    assert 'hx-swap-oob="true"' in panel[:200]
    assert "Goblet Squat" in panel
    # the coach is asked to acknowledge: a thinking placeholder arrives out of band
    followup = conversation.messages.filter(role=Message.Role.ASSISTANT).latest("pk")
    assert reverse("chat:message_poll", args=[followup.pk]) in html


def test_cancel_changes_nothing_and_empties_the_card(athlete_client, conversation, program):
    batch = make_batch(conversation, [rename_call("Goblet Squat")])
    response = athlete_client.post(
        reverse("chat:batch_cancel", args=[batch.pk]), {"revision": batch.revision}, headers=HX
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert first_exercise(program).name == "Back Squat"
    batch.refresh_from_db()
    assert batch.status == PendingToolBatch.BatchStatus.CANCELLED
    assert "Apply Changes" not in html
    assert 'hx-swap-oob="beforeend:#messages"' in html


def test_apply_without_htmx_redirects_to_the_chat(athlete_client, conversation, program):
    batch = make_batch(conversation, [rename_call("Goblet Squat")])
    response = athlete_client.post(
        reverse("chat:batch_apply", args=[batch.pk]), {"revision": batch.revision}
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("chat:conversation", args=[conversation.pk])
    assert first_exercise(program).name == "Goblet Squat"


def test_apply_that_fails_keeps_the_card_and_names_the_failed_call(
    athlete_client, conversation, program
):
    batch = make_batch(
        conversation, [rename_call("Goblet Squat"), rename_call("Lunge", exercise=9, call_id="c2")]
    )
    response = athlete_client.post(
        reverse("chat:batch_apply", args=[batch.pk]), {"revision": batch.revision}, headers=HX
    )
    html = response.content.decode()
    batch.refresh_from_db()
    assert batch.status == PendingToolBatch.BatchStatus.FAILED
    assert first_exercise(program).name == "Back Squat"
    assert "Could not apply these changes." in html
    assert batch.error_message
    assert batch.error_message.replace('"', "&quot;")[:40] in html
    assert ">Apply Changes</button>" in html


def test_apply_on_an_old_revision_shows_the_fresh_card_with_a_note(
    athlete_client, conversation, program
):
    batch = make_batch(conversation, [rename_call("Goblet Squat")])
    response = athlete_client.post(
        reverse("chat:batch_apply", args=[batch.pk]), {"revision": batch.revision + 5}, headers=HX
    )
    html = response.content.decode()
    assert first_exercise(program).name == "Back Squat"
    assert "The plan changed since you saw it — review the updated changes." in html
    assert ">Apply Changes</button>" in html


def test_apply_after_the_program_changed_re_previews_and_asks_again(
    athlete_client, conversation, program
):
    batch = make_batch(conversation, [rename_call("Goblet Squat")])
    object_update(obj=first_exercise(program), fields={"name": "Front Squat"})
    program_bump_version(program=program)  # as the coach's admin does
    response = athlete_client.post(
        reverse("chat:batch_apply", args=[batch.pk]), {"revision": batch.revision}, headers=HX
    )
    html = response.content.decode()
    batch.refresh_from_db()
    assert batch.status == PendingToolBatch.BatchStatus.STALE
    assert first_exercise(program).name == "Front Squat"
    assert "The plan changed since you saw it" in html
    assert "Front Squat" in html
    assert f'name="revision" value="{batch.revision}"' in html


def test_a_second_apply_click_reloads_the_current_state_without_an_error(
    athlete_client, conversation, program
):
    batch = make_batch(conversation, [rename_call("Goblet Squat")])
    url = reverse("chat:batch_apply", args=[batch.pk])
    athlete_client.post(url, {"revision": batch.revision}, headers=HX)
    version = program.__class__.objects.get(pk=program.pk).version
    response = athlete_client.post(url, {"revision": batch.revision}, headers=HX)
    assert response.status_code == 200
    assert response["HX-Refresh"] == "true"
    assert program.__class__.objects.get(pk=program.pk).version == version
    assert conversation.messages.filter(role=Message.Role.EVENT).count() == 1
    page = athlete_client.get("/").content.decode()
    assert "Could not apply" not in page
    assert "Apply Changes" not in page
    assert "Goblet Squat" in page


def test_cancel_after_apply_changes_nothing(athlete_client, conversation, program):
    batch = make_batch(conversation, [rename_call("Goblet Squat")])
    athlete_client.post(
        reverse("chat:batch_apply", args=[batch.pk]), {"revision": batch.revision}, headers=HX
    )
    response = athlete_client.post(
        reverse("chat:batch_cancel", args=[batch.pk]), {"revision": batch.revision}, headers=HX
    )
    assert response.status_code == 200
    batch.refresh_from_db()
    assert batch.status == PendingToolBatch.BatchStatus.APPLIED
    assert first_exercise(program).name == "Goblet Squat"


def test_a_decision_without_a_revision_is_a_bad_request(athlete_client, conversation):
    batch = make_batch(conversation, [rename_call("Goblet Squat")])
    response = athlete_client.post(reverse("chat:batch_apply", args=[batch.pk]), {}, headers=HX)
    assert response.status_code == 400
    batch.refresh_from_db()
    assert batch.status == PendingToolBatch.BatchStatus.PENDING


def test_a_refusal_from_the_service_is_a_403(athlete_client, conversation, monkeypatch):
    batch = make_batch(conversation, [rename_call("Goblet Squat")])

    def refuse(**kwargs):
        raise PermissionDenied("not yours")

    monkeypatch.setattr(proposals, "apply", refuse)
    response = athlete_client.post(
        reverse("chat:batch_apply", args=[batch.pk]), {"revision": batch.revision}, headers=HX
    )
    assert response.status_code == 403


# --- everyone sees only their own ---------------------------------------------------------------


@pytest.mark.parametrize("action", ["chat:batch_apply", "chat:batch_cancel"])
def test_another_athletes_batch_is_a_404_and_stays_open(
    intruder_client, conversation, program, action
):
    batch = make_batch(conversation, [rename_call("Goblet Squat")])
    response = intruder_client.post(
        reverse(action, args=[batch.pk]), {"revision": batch.revision}, headers=HX
    )
    assert response.status_code == 404
    batch.refresh_from_db()
    assert batch.status == PendingToolBatch.BatchStatus.PENDING
    assert first_exercise(program).name == "Back Squat"
