import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from chat.agent import run_turn
from chat.models import Conversation, Message, PendingToolBatch
from chat.proposals import apply as batch_apply
from chat.proposals import cancel as batch_cancel
from chat.proposals import open_batch
from chat.services import MAX_MESSAGE_CHARS, conversation_for_athlete, message_send
from coach.llm.base import LLMResponse
from journal import services as journal
from programs.models import Exercise, ProgramRevision
from programs.selectors import program_week_view
from programs.services import exercise_insert, object_update, program_bump_version
from tests.calls import MORE_SETS, RENAME
from tests.chat.helpers import first_exercise, propose, version
from tests.chat.scripted_provider import ScriptedProvider
from tests.concurrency import at_once
from tests.factories import (
    CardioBlockFactory,
    ConversationFactory,
    ProgramFactory,
    UserFactory,
    build_program,
)

REMOVE_4 = ("call_3", "remove_exercise", {"weekNumber": 1, "sessionNumber": 1, "exerciseNumber": 4})


@pytest.fixture
def conversation(program):
    return ConversationFactory(program=program)


@pytest.fixture
def scripted_llm(monkeypatch):
    """``get_provider()`` returns a scripted provider answering every call with a short text."""

    provider = ScriptedProvider(
        default=LLMResponse(
            text="Noted.\n---\nOK", tool_calls=[], provider="scripted", model="scripted-1"
        )
    )
    monkeypatch.setattr("chat.agent.get_provider", lambda **kw: provider)
    return provider


# --- conversations ------------------------------------------------------------------------------


@pytest.mark.django_db
def test_an_athlete_without_a_program_has_no_conversation():
    assert conversation_for_athlete(athlete=UserFactory()) is None


@pytest.mark.django_db
def test_the_conversation_is_about_the_newest_program_and_reused(program):
    athlete = program.athlete
    conversation = conversation_for_athlete(athlete=athlete)
    assert conversation.program == program
    assert conversation_for_athlete(athlete=athlete) == conversation
    newer = ProgramFactory(athlete=athlete)
    assert conversation_for_athlete(athlete=athlete).program == newer
    assert Conversation.objects.filter(athlete=athlete).count() == 2


# --- sending --------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_message_is_saved_before_the_agent_is_queued(
    conversation, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks() as callbacks:
        user_message, placeholder = message_send(conversation=conversation, text="  hello coach  ")
        assert Message.objects.filter(pk=user_message.pk).exists()
        assert callbacks == []  # queued only on commit
    assert len(callbacks) == 1
    assert user_message.content == "hello coach"
    assert user_message.role == "user" and user_message.pk < placeholder.pk
    assert placeholder.status == "pending" and placeholder.reply_to == user_message
    assert not placeholder.is_visible


@pytest.mark.django_db
def test_the_queued_task_fills_the_placeholder(
    conversation, django_capture_on_commit_callbacks, scripted_llm
):
    with django_capture_on_commit_callbacks(execute=True):
        _, placeholder = message_send(conversation=conversation, text="hello")
    placeholder.refresh_from_db()
    assert placeholder.status == "complete"
    assert placeholder.content == "Noted."
    assert scripted_llm.requests[0].turns[-1].content == "hello"


@pytest.mark.django_db
@pytest.mark.parametrize("text", ["", "   \n ", "x" * (MAX_MESSAGE_CHARS + 1)])
def test_an_empty_or_too_long_message_is_refused_and_nothing_saved(conversation, text):
    with pytest.raises(ValidationError) as excinfo:
        message_send(conversation=conversation, text=text)
    assert not Message.objects.exists()
    if text.strip():
        assert "at most 4000 characters" in excinfo.value.messages[0]


@pytest.mark.django_db
def test_a_message_of_exactly_the_limit_is_accepted(conversation):
    user_message, _ = message_send(conversation=conversation, text="x" * MAX_MESSAGE_CHARS)
    assert len(user_message.content) == MAX_MESSAGE_CHARS


# --- apply ----------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_apply_runs_every_call_once_and_queues_an_acknowledgment(
    conversation, program, django_capture_on_commit_callbacks, scripted_llm
):
    propose(conversation, RENAME, MORE_SETS)
    batch = open_batch(conversation=conversation)
    start = version(program)
    with django_capture_on_commit_callbacks(execute=True):
        decision = batch_apply(batch_id=batch.pk, user=program.athlete, revision=batch.revision)
    assert decision.outcome == "applied"
    assert version(program) == start + 1  # one applied batch, one revision, one version step
    assert first_exercise(program).name == "Goblet Squat"
    assert first_exercise(program, 2).working_sets == 5
    batch.refresh_from_db()
    assert batch.status == "applied" and not batch.is_open
    assert batch.decided_by == program.athlete and batch.decided_at is not None
    assert [r["success"] for r in batch.results] == [True, True]
    event = conversation.messages.get(role="event")
    assert event.content == "You applied 2 changes."
    assert event.decision.kind == "applied"
    assert [r["success"] for r in event.decision.results] == [True, True]
    assert [r.via for r in journal.parts(event.decision.change_set, ProgramRevision)] == ["chat"]
    decision.followup.refresh_from_db()
    assert decision.followup.reply_to == event
    assert decision.followup.status == "complete"
    assert open_batch(conversation=conversation) is None


@pytest.mark.django_db
def test_a_second_apply_is_already_decided_and_writes_nothing(conversation, program):
    batch = propose(conversation, RENAME)
    batch_apply(batch_id=batch.pk, user=program.athlete, revision=batch.revision)
    after_first = version(program)
    decision = batch_apply(batch_id=batch.pk, user=program.athlete, revision=batch.revision)
    assert decision.outcome == "already_decided" and decision.followup is None
    assert version(program) == after_first
    assert conversation.messages.filter(role="event").count() == 1


@pytest.mark.django_db
def test_only_the_batchs_athlete_can_apply_or_cancel(conversation, program):
    batch = propose(conversation, RENAME)
    stranger = UserFactory()
    with pytest.raises(PermissionDenied):
        batch_apply(batch_id=batch.pk, user=stranger, revision=batch.revision)
    with pytest.raises(PermissionDenied):
        batch_cancel(batch_id=batch.pk, user=stranger, revision=batch.revision)
    batch.refresh_from_db()
    assert batch.status == "pending"
    assert first_exercise(program).name == "Back Squat"


@pytest.mark.django_db
def test_a_missing_batch_raises_does_not_exist(program):
    with pytest.raises(PendingToolBatch.DoesNotExist):
        batch_apply(batch_id=987654, user=program.athlete, revision=1)


@pytest.mark.django_db
def test_apply_with_an_old_revision_applies_nothing(conversation, program):
    propose(conversation, RENAME)
    batch = propose(conversation, MORE_SETS)  # revision 2 now
    decision = batch_apply(batch_id=batch.pk, user=program.athlete, revision=1)
    assert decision.outcome == "revision_mismatch"
    assert first_exercise(program).name == "Back Squat"
    assert open_batch(conversation=conversation).status == "pending"


@pytest.mark.django_db
def test_a_program_changed_since_the_preview_makes_the_batch_stale(conversation, program):
    batch = propose(conversation, RENAME)
    object_update(obj=first_exercise(program, 2), fields={"reps": "5"})
    program_bump_version(program=program)  # a coach edited the program in the admin
    decision = batch_apply(batch_id=batch.pk, user=program.athlete, revision=batch.revision)
    assert decision.outcome == "stale"
    batch.refresh_from_db()
    assert batch.status == "stale" and batch.is_open
    assert batch.revision == 2
    assert batch.program_version == version(program)
    assert "changed since" in batch.error_message
    assert first_exercise(program).name == "Back Squat"
    again = batch_apply(batch_id=batch.pk, user=program.athlete, revision=batch.revision)
    assert again.outcome == "applied"
    assert first_exercise(program).name == "Goblet Squat"


@pytest.mark.django_db
def test_a_failed_apply_keeps_the_batch_open_names_the_call_and_can_be_retried(
    conversation, program
):
    batch = propose(conversation, RENAME, REMOVE_4)
    # Between preview and apply the 4th exercise disappears without the version changing (as if a
    # bug bypassed the services); the batch must fail as a whole.
    Exercise.objects.filter(pk=first_exercise(program, 4).pk).delete()
    start = version(program)
    decision = batch_apply(batch_id=batch.pk, user=program.athlete, revision=batch.revision)
    assert decision.outcome == "failed" and decision.followup is None
    batch.refresh_from_db()
    assert batch.status == "failed" and batch.is_open
    assert batch.error_message.startswith("Change 2 of 2 (remove an exercise) failed: ")
    assert "only 3 exercises" in batch.error_message
    assert first_exercise(program).name == "Back Squat"
    assert version(program) == start
    assert "failed" in conversation.messages.get(role="event").content
    # Scenario 17: the athlete clicks Apply Changes again.
    retry = batch_apply(batch_id=batch.pk, user=program.athlete, revision=batch.revision)
    assert retry.outcome == "failed"
    # And once the program fits again (a coach adds an exercise: the version changes) it applies.

    exercise_insert(
        session=first_exercise(program).session,
        position=4,
        name="Plank",
        working_sets=3,
        reps="30s",
        target_load="bodyweight",
    )
    program_bump_version(program=program)
    stale = batch_apply(batch_id=batch.pk, user=program.athlete, revision=batch.revision)
    assert stale.outcome == "stale"
    stale.batch.refresh_from_db()
    applied = batch_apply(batch_id=batch.pk, user=program.athlete, revision=stale.batch.revision)
    assert applied.outcome == "applied"
    assert first_exercise(program).name == "Goblet Squat"
    assert Exercise.objects.filter(session=first_exercise(program).session).count() == 3


@pytest.mark.django_db
def test_a_question_between_proposal_and_apply_does_not_change_the_batch(conversation, program):
    batch = propose(conversation, RENAME)
    with transaction.atomic():
        _, placeholder = message_send(conversation=conversation, text="what's a goblet squat?")
    run_turn(
        placeholder=placeholder,
        provider=ScriptedProvider().text("A squat holding a weight.\n---\nOK"),
    )
    decision = batch_apply(batch_id=batch.pk, user=program.athlete, revision=batch.revision)
    assert decision.outcome == "applied"
    assert first_exercise(program).name == "Goblet Squat"


# --- cancel ---------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_cancel_discards_the_batch_and_tells_the_model(
    conversation, program, django_capture_on_commit_callbacks, scripted_llm
):
    batch = propose(conversation, RENAME)
    start = version(program)
    with django_capture_on_commit_callbacks(execute=True):
        decision = batch_cancel(batch_id=batch.pk, user=program.athlete, revision=batch.revision)
    assert decision.outcome == "cancelled"
    batch.refresh_from_db()
    assert batch.status == "cancelled" and batch.decided_by == program.athlete
    assert version(program) == start
    assert first_exercise(program).name == "Back Squat"
    event = conversation.messages.get(role="event")
    assert event.decision.kind == "cancelled" and event.decision.actor == program.athlete
    assert (
        "The athlete cancelled the proposed changes." in scripted_llm.requests[-1].turns[-1].content
    )
    assert (
        batch_apply(batch_id=batch.pk, user=program.athlete, revision=batch.revision).outcome
        == "already_decided"
    )
    assert (
        batch_cancel(batch_id=batch.pk, user=program.athlete, revision=batch.revision).outcome
        == "already_decided"
    )


@pytest.mark.django_db
def test_cancel_with_an_old_revision_changes_nothing(conversation, program):
    propose(conversation, RENAME)
    batch = propose(conversation, MORE_SETS)
    assert (
        batch_cancel(batch_id=batch.pk, user=program.athlete, revision=1).outcome
        == "revision_mismatch"
    )
    assert open_batch(conversation=conversation).pk == batch.pk


@pytest.mark.django_db
def test_a_new_proposal_after_apply_starts_a_new_batch(conversation, program):
    batch = propose(conversation, RENAME)
    batch_apply(batch_id=batch.pk, user=program.athlete, revision=batch.revision)
    second = propose(conversation, MORE_SETS)
    assert second.pk != batch.pk and second.revision == 1
    assert [c["id"] for c in second.calls] == ["call_2"]


# --- exactly once under concurrency (PostgreSQL row locks; SQLite's IMMEDIATE writers) -------------


@pytest.mark.django_db(transaction=True)
def test_two_simultaneous_applies_write_once(monkeypatch):
    program = build_program(weeks=1, sessions=1, exercises=4)
    conversation = ConversationFactory(program=program)
    provider = ScriptedProvider().calls(RENAME, MORE_SETS, text="Both?").text("Done.\n---\nOK")
    monkeypatch.setattr("chat.agent.get_provider", lambda **kw: provider)
    message_send(conversation=conversation, text="change both")  # commits: the eager task runs
    batch = PendingToolBatch.objects.get(conversation=conversation)
    start = version(program)
    outcomes, errors = at_once(
        lambda: (
            batch_apply(batch_id=batch.pk, user=program.athlete, revision=batch.revision).outcome
        )
    )
    assert errors == []
    assert sorted(outcomes) == ["already_decided", "applied"]
    assert version(program) == start + 1  # applied once: one revision
    assert Message.objects.filter(conversation=conversation, role="event").count() == 1


# --- the program panel ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_week_view_shows_the_week_containing_today(program):
    CardioBlockFactory(session=program.weeks.get(position=2).sessions.get(position=3))
    view = program_week_view(program=program, today=datetime.date(2026, 11, 10))
    assert view["week"]["number"] == 2 and view["is_current_week"]
    assert view["previous_week_number"] == 1 and view["next_week_number"] is None
    assert [s["number"] for s in view["sessions"]] == [1, 2, 3]
    first = view["sessions"][0]["exercises"][0]
    assert first["ref"] == "week-2-session-1-exercise-1"
    assert first["name"] == "Back Squat" and first["sets_text"] == "3×8-10 @ 135 lbs"
    assert view["sessions"][1]["is_today"]
    assert view["sessions"][2]["cardio"]["duration"] == 30


@pytest.mark.django_db
def test_week_view_before_the_program_starts_shows_week_one(program):
    view = program_week_view(program=program, today=datetime.date(2020, 1, 1))
    assert view["week"]["number"] == 1 and not view["is_current_week"]


@pytest.mark.django_db
def test_week_view_can_show_another_week(program):
    view = program_week_view(program=program, today=datetime.date(2026, 11, 2), week_number=2)
    assert view["week"]["number"] == 2


@pytest.mark.django_db
def test_week_view_of_an_empty_program():
    view = program_week_view(program=ProgramFactory())
    assert view["week"] is None and view["sessions"] == []


@pytest.mark.django_db
def test_week_view_takes_a_fixed_number_of_queries(django_assert_num_queries):
    program = build_program(weeks=8, sessions=6, exercises=8)
    with django_assert_num_queries(3):
        view = program_week_view(program=program, today=datetime.date(2026, 11, 2))
    assert sum(len(s["exercises"]) for s in view["sessions"]) == 48


@pytest.mark.django_db
def test_nul_characters_are_dropped_from_a_message(conversation):
    user_message, _ = message_send(conversation=conversation, text="hel\x00lo")
    user_message.refresh_from_db()
    assert user_message.content == "hello"
