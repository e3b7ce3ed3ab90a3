"""Notifications (issue 21 §5): the athlete's e-mail when their coach writes or decides, the
coach's digest of new reviews (and of what other apps add through their ``digest`` module), each
with a signed one-click unsubscribe, and the settings page."""

from __future__ import annotations

import types

import pytest
from django.apps import apps
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

from chat import proposals, services
from inbox import notify
from inbox.models import NotificationSettings
from tests.inbox.conftest import awaiting

pytestmark = pytest.mark.django_db


def token_path(message) -> str:
    url = message.extra_headers["List-Unsubscribe"].strip("<>")
    return url.removeprefix(django_settings.SITE_URL)


def test_the_athlete_is_emailed_when_their_coach_writes(
    coach, athlete, conversation, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        services.coach_post(conversation=conversation, coach=coach, text="Rest tomorrow")
    assert len(mail.outbox) == 1
    sent = mail.outbox[0]
    assert sent.to == [athlete.email] and sent.subject == "Your coach wrote to you"
    assert "Rest tomorrow" in sent.body
    assert sent.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


def test_the_athlete_is_emailed_when_their_coach_decides(
    coach, waiting, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        proposals.decline(batch_id=waiting.pk, coach=coach, note="Keep the session")
    assert [m.subject for m in mail.outbox] == ["Your coach declined your changes"]
    assert "Keep the session" in mail.outbox[0].body


def test_one_click_unsubscribe_stops_that_kind_only(
    client, coach, athlete, conversation, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        services.coach_post(conversation=conversation, coach=coach, text="one")
    path = token_path(mail.outbox[0])
    page = client.get(path)  # a link scanner's GET unsubscribes no one
    assert page.status_code == 200 and "Unsubscribe" in page.content.decode()
    assert NotificationSettings.objects.get(user=athlete).coach_updates is True
    assert "You get no more" in client.post(path).content.decode()  # no CSRF: one-click
    row = NotificationSettings.objects.get(user=athlete)
    assert row.coach_updates is False and row.review_digest is True
    with django_capture_on_commit_callbacks(execute=True):
        services.coach_post(conversation=conversation, coach=coach, text="two")
    assert len(mail.outbox) == 1


def test_a_forged_or_broken_token_changes_nothing(client, athlete):
    forged = notify.unsubscribe_token(athlete, notify.COACH_UPDATES)[:-2] + "xx"
    for token in (forged, "nonsense"):
        path = reverse("inbox:unsubscribe", args=[token])
        assert client.post(path).status_code == 400
    assert not NotificationSettings.objects.filter(coach_updates=False).exists()


def test_the_coach_digest_lists_new_reviews_once(
    coach, other_coach, waiting, others_waiting, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        assert notify.send_digests() == 2
    to_ann = [m for m in mail.outbox if m.to == [coach.email]]
    assert len(to_ann) == 1
    assert "Waiting for your review (1)" in to_ann[0].body
    assert "alex" in to_ann[0].body and "olga" not in to_ann[0].body
    assert reverse("inbox:reviews") in to_ann[0].body
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert notify.send_digests() == 0
    assert mail.outbox == []  # nothing new since


def test_a_new_review_after_the_digest_is_in_the_next(
    coach, conversation, waiting, django_capture_on_commit_callbacks
):
    notify.send_digests()
    proposals.approve(batch_id=waiting.pk, coach=coach)
    awaiting(conversation, ("call_rm2", "remove_session", {"weekNumber": 2, "sessionNumber": 1}))
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert notify.send_digests() == 1
    assert [m.to for m in mail.outbox] == [[coach.email]]
    assert "Waiting for your review (1)" in mail.outbox[0].body


def test_the_digest_is_off_when_the_coach_says_so(
    coach, waiting, django_capture_on_commit_callbacks
):
    NotificationSettings.objects.create(user=coach, review_digest=False)
    with django_capture_on_commit_callbacks(execute=True):
        assert notify.send_digests() == 0
    assert mail.outbox == []


def test_other_apps_add_their_section_through_a_digest_module(
    coach, monkeypatch, django_capture_on_commit_callbacks
):
    hook = types.SimpleNamespace(name="tests.inbox.digest_hook", verbose_name="Hook")
    installed = list(apps.get_app_configs())
    monkeypatch.setattr(apps, "get_app_configs", lambda: [*installed, hook])
    with django_capture_on_commit_callbacks(execute=True):
        assert notify.send_digest(coach) is True
    assert "New flags:\n- Sore knee noted for an athlete of coach-ann" in mail.outbox[0].body


def test_no_section_without_a_digest_module(coach):
    assert notify.digest_sections(coach, None) == []


def test_the_beat_runs_the_digest():
    entry = django_settings.CELERY_BEAT_SCHEDULE["inbox-digests"]
    assert entry["task"] == "inbox.tasks.send_digests"


def test_the_settings_page_switches_each_kind(client, coach):
    client.force_login(coach)
    assert "digest" in client.get(reverse("inbox:settings")).content.decode()
    client.post(reverse("inbox:settings"), {"coach_updates": "on"})
    row = NotificationSettings.objects.get(user=coach)
    assert row.coach_updates is True and row.review_digest is False


def test_a_superuser_who_coaches_no_one_gets_no_digest(
    coach, waiting, django_capture_on_commit_callbacks
):
    get_user_model().objects.create_superuser("root", "root@example.com", "pw")
    with django_capture_on_commit_callbacks(execute=True):
        notify.send_digests()
    assert [m.to for m in mail.outbox] == [[coach.email]]
