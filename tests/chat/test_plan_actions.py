"""The buttons that propose without words: Move on the calendar, Realign my plan and Not feeling
100 % in the chat. Each makes an ordinary batch through chat.proposals: nothing changes before
Apply, the card shows before → after, Apply changes it, Undo puts it back, and someone else's
session is a 404."""

from __future__ import annotations

import datetime

import pytest
from django.db import transaction
from django.urls import reverse

from chat import plan_actions, services
from chat.agent import run_turn
from chat.models import Message, PendingToolBatch, ToolCallRecord
from coach.llm.offline import OfflineProvider
from programs.models import Exercise, Session, Week
from programs.services import program_bump_version
from tests.coach.training_helpers import dates, today_of
from tests.factories import UserFactory, build_program

pytestmark = pytest.mark.django_db

D = datetime.timedelta


@pytest.fixture
def program():
    """Week 1 two weeks ago, week 2 the last seven days, weeks 3-4 from today (room to push)."""
    athlete = UserFactory()
    today = today_of(athlete)
    program = build_program(
        weeks=4, sessions=3, exercises=2, athlete=athlete, start_date=today - D(days=14)
    )
    last = Week.objects.get(program=program, position=4)
    Week.objects.filter(pk=last.pk).update(end_date=last.end_date + D(days=14))
    return program


@pytest.fixture
def today(program):
    return today_of(program.athlete)


@pytest.fixture
def athlete_client(client, program):
    client.force_login(program.athlete)
    return client


def session(program, week, number):
    return Session.objects.get(week__program=program, week__position=week, position=number)


def open_batch(program):
    return PendingToolBatch.objects.get(
        conversation__program=program, status__in=PendingToolBatch.OPEN_STATUSES
    )


def click(client, name, batch):
    return client.post(reverse(f"chat:batch_{name}", args=[batch.pk]), {"revision": batch.revision})


def undo(client, batch):
    return client.post(reverse("chat:batch_undo", args=[batch.pk]))


def log_done(program, sessions) -> None:
    """Mark ``sessions`` done as logging a workout does: the program's version goes up with it
    (``programs.services``), which is what the chat's cached offer is keyed by."""
    sessions.update(completed=True)
    program_bump_version(program=program)


def complete_week_1(program):
    log_done(program, Session.objects.filter(week__program=program, week__position=1))


# --- Move ------------------------------------------------------------------------------------


def test_move_proposes_a_card_and_nothing_moves_before_apply(athlete_client, program, today):
    target = session(program, 3, 2)
    old, new = target.scheduled_date, target.scheduled_date + D(days=3)
    response = athlete_client.post(
        reverse("chat:session_move", args=[target.pk]),
        {"new_date": new.isoformat(), "strategy": "swap"},
    )
    assert response.status_code == 302 and response["Location"] == reverse("chat:home")
    batch = open_batch(program)
    assert [c["name"] for c in batch.calls] == ["reschedule_workout"]
    assert batch.calls[0]["arguments"] == {
        "workout_id": "week-3-session-2",
        "new_date": new.isoformat(),
        "strategy": "swap",
    }
    assert session(program, 3, 2).scheduled_date == old  # nothing moved yet
    page = athlete_client.get(reverse("chat:home")).content.decode()
    assert "Apply Changes" in page
    assert f"<del>{old.isoformat()}" in page and f"<ins>{new.isoformat()}" in page
    # The click reads as the athlete's request; the audit log says a button, not a model, proposed.
    asked = Message.objects.filter(conversation=batch.conversation, role="user").last()
    assert new.isoformat() in asked.content and "Move" in asked.content
    record = ToolCallRecord.objects.get(batch=batch)
    assert (record.provider, record.model) == ("spotter", "calendar-move")

    assert click(athlete_client, "apply", batch).status_code == 302
    assert session(program, 3, 2).scheduled_date == new
    batch.refresh_from_db()
    assert batch.status == "applied"
    undo(athlete_client, batch)
    assert session(program, 3, 2).scheduled_date == old


def test_move_with_push_moves_the_later_sessions_too_after_apply(athlete_client, program):
    target = session(program, 3, 1)
    before = dates(program)
    athlete_client.post(
        reverse("chat:session_move", args=[target.pk]),
        {"new_date": (target.scheduled_date + D(days=2)).isoformat(), "strategy": "push"},
    )
    batch = open_batch(program)
    assert dates(program) == before
    click(athlete_client, "apply", batch)
    after = dates(program)
    assert after["week-4-session-3"] == before["week-4-session-3"] + D(days=2)


def test_moving_someone_elses_session_is_a_404_and_changes_nothing(client, program):
    other = build_program(weeks=1, sessions=1, exercises=1)
    client.force_login(other.athlete)
    target = session(program, 3, 1)
    response = client.post(
        reverse("chat:session_move", args=[target.pk]),
        {"new_date": target.scheduled_date.isoformat()},
    )
    assert response.status_code == 404
    assert not PendingToolBatch.objects.exists()
    assert not Message.objects.exists()


def test_a_bad_date_goes_back_to_the_calendar_and_proposes_nothing(athlete_client, program):
    target = session(program, 3, 1)
    response = athlete_client.post(
        reverse("chat:session_move", args=[target.pk]), {"new_date": "next tuesday"}, follow=True
    )
    assert response.redirect_chain[-1][0].startswith(reverse("training:calendar"))
    assert "YYYY-MM-DD" in response.content.decode()
    assert not PendingToolBatch.objects.exists()


def test_a_refused_move_is_explained_in_the_chat_and_queues_nothing(athlete_client, program):
    done = session(program, 1, 1)
    Session.objects.filter(pk=done.pk).update(completed=True)
    athlete_client.post(
        reverse("chat:session_move", args=[done.pk]),
        {"new_date": (done.scheduled_date + D(days=1)).isoformat()},
    )
    assert not PendingToolBatch.objects.exists()
    reply = Message.objects.filter(role="assistant").last()
    assert reply.error_code == "refused" and "completed" in reply.content
    # Every call is answered by a tool message, so the conversation stays valid for a model.
    assert Message.objects.filter(role="tool", reply_to=reply).count() == 1


def test_the_calendar_offers_move_only_for_open_sessions_of_the_current_program(
    athlete_client, program
):
    Session.objects.filter(pk=session(program, 1, 1).pk).update(completed=True)
    start = program.weeks.get(position=1).start_date
    page = athlete_client.get(
        reverse("training:calendar") + f"?view=month&date={start.isoformat()}"
    ).content.decode()
    assert reverse("chat:session_move", args=[session(program, 1, 2).pk]) in page
    assert reverse("chat:session_move", args=[session(program, 1, 1).pk]) not in page


# --- Realign my plan -------------------------------------------------------------------------


def offer(client) -> str:
    return client.get(reverse("chat:plan_offer"), headers={"HX-Request": "true"}).content.decode()


def test_realign_is_offered_in_the_chat_only_from_three_missed_sessions(athlete_client, program):
    page = athlete_client.get(reverse("chat:home")).content.decode()
    assert reverse("chat:plan_offer") not in page  # the offer is part of the page
    assert "Not feeling 100%" in page
    complete_week_1(program)
    page = athlete_client.get(reverse("chat:home")).content.decode()
    assert "Realign my plan" in page and "3 sessions missed" in page
    html = offer(athlete_client)
    assert "Realign my plan" in html and "3 sessions missed" in html
    assert reverse("chat:plan_realign") in html
    log_done(program, Session.objects.filter(pk=session(program, 2, 1).pk))
    html = offer(athlete_client)
    assert "Realign my plan" not in html and reverse("chat:plan_realign") not in html
    assert "Not feeling 100%" in html  # always offered
    assert 'name="days"' in html and '<option value="3"' in html and '<option value="14"' in html


OOB_OFFER = '<div id="plan-actions" hx-swap-oob="true">'


def test_the_offer_travels_with_the_page_and_the_decisions_never_on_its_own(
    athlete_client, program, django_assert_num_queries
):
    """Issue 23 item 3: the page holds the offer (no request of its own after each swap) and each
    decision sends it again out of band; counted once per version of the plan."""
    page = athlete_client.get(reverse("chat:home")).content.decode()
    assert 'hx-get="/plan/offer/"' not in page and "htmx:oobAfterSwap" not in page
    athlete_client.post(reverse("chat:plan_lighter"), {"days": "3"})
    batch = open_batch(program)
    page = athlete_client.get(reverse("chat:home")).content.decode()
    assert "Not feeling 100%" not in page  # a card is open: no offer
    htmx = {"HX-Request": "true"}
    applied = athlete_client.post(
        reverse("chat:batch_apply", args=[batch.pk]), {"revision": batch.revision}, headers=htmx
    ).content.decode()
    assert OOB_OFFER in applied and "Not feeling 100%" in applied.split(OOB_OFFER)[1]
    # The offer of this version is counted: the next page reads it from the cache.
    conversation = services.conversation_for_athlete(athlete=program.athlete)
    plan_actions.plan_offer(conversation)
    with django_assert_num_queries(0):
        plan_actions.plan_offer(conversation)


def test_a_reply_sends_the_offer_out_of_band(athlete_client, program):
    conversation = services.conversation_for_athlete(athlete=program.athlete)
    reply = Message.objects.create(
        conversation=conversation, role=Message.Role.ASSISTANT, content="Rest today."
    )
    html = athlete_client.get(
        reverse("chat:message_poll", args=[reply.pk]), headers={"HX-Request": "true"}
    ).content.decode()
    assert OOB_OFFER in html and "Not feeling 100%" in html.split(OOB_OFFER)[1]


def test_realign_card_shows_every_date_before_and_after_then_apply_and_undo(
    athlete_client, program, today
):
    complete_week_1(program)
    before = dates(program)
    response = athlete_client.post(reverse("chat:plan_realign"))
    assert response.status_code == 302
    batch = open_batch(program)
    assert batch.calls[0]["name"] == "reschedule_workout"
    assert batch.calls[0]["arguments"]["strategy"] == "push"
    assert dates(program) == before
    page = athlete_client.get(reverse("chat:home")).content.decode()
    moved = [ref for ref in before if not ref.startswith("week-1")]
    for ref in moved:
        assert f"<del>{before[ref].isoformat()}" in page
        assert f"<ins>{(before[ref] + D(days=7)).isoformat()}" in page
    assert offer(athlete_client).strip() == ""  # a card is open: no offer
    click(athlete_client, "apply", batch)
    after = dates(program)
    assert after["week-2-session-1"] == today
    assert all(after[r] == before[r] + D(days=7) for r in moved)
    undo(athlete_client, batch)
    assert dates(program) == before


def test_realign_with_nothing_missed_changes_nothing_and_says_so(athlete_client, program, today):
    Session.objects.filter(week__program=program, scheduled_date__lt=today).update(completed=True)
    response = athlete_client.post(reverse("chat:plan_realign"), follow=True)
    assert "nothing to realign" in response.content.decode()
    assert not PendingToolBatch.objects.exists()


# --- Not feeling 100 % -----------------------------------------------------------------------


def test_lighter_days_propose_fewer_sets_and_lower_loads_then_apply_and_undo(
    athlete_client, program
):
    athlete_client.post(reverse("chat:plan_lighter"), {"days": "3"})
    batch = open_batch(program)
    assert {c["name"] for c in batch.calls} == {"modify_exercise"}
    assert len(batch.calls) == 6  # week 3's three sessions (today, +1, +2) × 2 exercises
    squat = Exercise.objects.get(session=session(program, 3, 1), position=1)
    assert (squat.working_sets, squat.target_load) == (3, "135 lbs")
    page = athlete_client.get(reverse("chat:home")).content.decode()
    assert "120 lbs" in page and "Edit" in page
    click(athlete_client, "apply", batch)
    squat.refresh_from_db()
    assert (squat.working_sets, squat.target_load) == (2, "120 lbs")
    undo(athlete_client, batch)
    squat.refresh_from_db()
    assert (squat.working_sets, squat.target_load) == (3, "135 lbs")


@pytest.mark.parametrize("days", ["2", "15", "x", ""])
def test_lighter_days_outside_3_to_14_change_nothing_and_name_the_bounds(
    athlete_client, program, days
):
    response = athlete_client.post(reverse("chat:plan_lighter"), {"days": days}, follow=True)
    assert "3 to 14 days" in response.content.decode()
    assert not PendingToolBatch.objects.exists()
    assert not Message.objects.exists()


def test_another_athlete_cannot_apply_or_undo_the_card(client, athlete_client, program):
    athlete_client.post(reverse("chat:plan_lighter"), {"days": "3"})
    batch = open_batch(program)
    other = UserFactory()
    build_program(weeks=1, sessions=1, exercises=1, athlete=other)
    client.force_login(other)
    assert click(client, "apply", batch).status_code == 404
    assert undo(client, batch).status_code == 404
    batch.refresh_from_db()
    assert batch.status == "pending"


def test_plan_buttons_need_a_program(client):
    client.force_login(UserFactory())
    assert client.post(reverse("chat:plan_realign")).status_code == 404
    assert client.post(reverse("chat:plan_lighter"), {"days": "5"}).status_code == 404
    assert client.get(reverse("chat:plan_offer")).status_code == 404
    assert services.conversation_for_athlete(athlete=UserFactory()) is None


# --- the offline coach -----------------------------------------------------------------------


def say(conversation, text) -> Message:
    with transaction.atomic():
        _, placeholder = services.message_send(conversation=conversation, text=text)
    run_turn(placeholder=placeholder, provider=OfflineProvider())
    placeholder.refresh_from_db()
    return placeholder


def test_offline_realign_and_lighter_propose_batches_that_apply_and_undo(athlete_client, program):
    complete_week_1(program)
    conversation = services.conversation_for_athlete(athlete=program.athlete)
    before = dates(program)
    reply = say(conversation, "realign")
    batch = open_batch(program)
    assert [c["name"] for c in batch.calls] == ["realign_plan"]
    assert "Apply Changes" in reply.content
    assert dates(program) == before
    click(athlete_client, "apply", batch)
    assert dates(program)["week-2-session-1"] == today_of(program.athlete)
    undo(athlete_client, batch)
    assert dates(program) == before

    say(conversation, "lighter 3 days")
    lighter = open_batch(program)
    assert [(c["name"], c["arguments"]) for c in lighter.calls] == [("lighten_plan", {"days": 3})]
    click(athlete_client, "apply", lighter)
    squat = Exercise.objects.get(session=session(program, 3, 1), position=1)
    assert (squat.working_sets, squat.target_load) == (2, "120 lbs")
