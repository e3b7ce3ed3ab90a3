"""Each guardrail's refusal path (seed 004): nothing is written, the athlete is asked, and the
audit record keeps the reason code."""

import pytest
from django.urls import reverse

from chat.agent import run_turn
from chat.models import Message, PendingToolBatch, ToolCallRecord
from chat.models.audit import GuardrailReason
from chat.services import message_send
from coach import guardrails
from coach.llm.base import LLMResponse, Usage
from coach.llm.textcalls import with_text_calls
from coach.toolcalls import ToolCall
from tests.chat.admin_helpers import make_staff
from tests.chat.scripted_provider import ScriptedProvider
from tests.factories import ConversationFactory
from tests.wellness.helpers import CREATINE, turn
from wellness.models import CareLog, MedicationLog, MoodLog

pytestmark = pytest.mark.django_db


@pytest.fixture
def conversation(program):
    return ConversationFactory(program=program)


def nothing_written():
    return not (
        MedicationLog.all_objects.exists()
        or MoodLog.all_objects.exists()
        or CareLog.all_objects.exists()
        or PendingToolBatch.objects.exists()
    )


def test_low_confidence_as_a_native_argument_asks_instead(conversation):
    args = {**CREATINE[2], "confidence": 0.5}
    reply = turn(conversation, "I took my creatine this morning", ("c1", "log_medication", args))
    assert nothing_written()
    assert reply.error_code == "refused" and "wasn't sure" in reply.content
    record = ToolCallRecord.objects.get()
    assert record.status == "refused" and record.guardrail == "low_confidence"
    assert record.result["errors"][0]["code"] == "LOW_CONFIDENCE"
    answer = Message.objects.get(role="tool")
    assert answer.is_error and "below 0.7" in answer.content


def test_low_confidence_in_a_text_format_call_asks_instead(conversation):
    marker = (
        '[TOOL_CALL:{"id":"call-1","tool":"log_mood","parameters":{"mood":"poor"},'
        '"confidence":0.4}]'
    )
    _, placeholder = message_send(conversation=conversation, text="meh, poor I guess")
    provider = ScriptedProvider()
    provider.script.append(
        with_text_calls(
            LLMResponse(
                text=f"Logging. {marker}", tool_calls=[], usage=Usage(1, 1), provider="t", model="t"
            )
        )
    )
    run_turn(placeholder=placeholder, provider=provider)
    assert nothing_written()
    assert ToolCallRecord.objects.get().guardrail == "low_confidence"


def test_confidence_at_the_threshold_passes(conversation):
    args = {**CREATINE[2], "confidence": 0.7}
    turn(conversation, "I took my creatine this morning", ("c1", "log_medication", args))
    assert MedicationLog.objects.count() == 1


def test_low_confidence_refuses_a_program_change_too(conversation):
    marker = (
        '[TOOL_CALL:{"id":"call-1","tool":"modify_exercise","parameters":{"weekNumber":1,'
        '"sessionNumber":1,"exerciseNumber":1,"updates":{"name":"Goblet Squat"}},"confidence":0.3}]'
    )
    _, placeholder = message_send(conversation=conversation, text="maybe squats?")
    provider = ScriptedProvider()
    provider.script.append(
        with_text_calls(
            LLMResponse(text=marker, tool_calls=[], usage=Usage(1, 1), provider="t", model="t")
        )
    )
    run_turn(placeholder=placeholder, provider=provider)
    assert not PendingToolBatch.objects.exists()
    assert ToolCallRecord.objects.get().guardrail == "low_confidence"


def test_a_medication_inferred_from_symptoms_is_refused(conversation):
    reply = turn(
        conversation,
        "I have a terrible headache",
        ("c1", "log_medication", {"medication_name": "ibuprofen", "kind": "medication"}),
    )
    assert nothing_written()
    assert "in your own words" in reply.content and "never guess" in reply.content
    record = ToolCallRecord.objects.get()
    assert record.guardrail == "not_stated" and record.result["errors"][0]["code"] == "NOT_STATED"


def test_a_negated_statement_is_not_a_statement(conversation):
    turn(conversation, "I haven't taken my creatine yet", CREATINE)
    assert nothing_written()
    assert ToolCallRecord.objects.get().guardrail == "not_stated"


def test_a_critical_care_log_needs_the_athletes_statement(conversation):
    turn(
        conversation,
        "my knee is swollen",
        (
            "v1",
            "create_care_log",
            {"log_type": "injury", "title": "Knee", "occurred_at": "2026-01-05T10:00"},
        ),
    )
    assert nothing_written()
    assert ToolCallRecord.objects.get().guardrail == "not_stated"


def test_one_refused_call_refuses_the_whole_response(conversation):
    turn(
        conversation,
        "feeling good today",
        ("m1", "log_mood", {"mood": "good"}),
        ("c1", "log_medication", {"medication_name": "creatine", "kind": "supplement"}),
    )
    assert nothing_written()
    records = {r.call_id: r for r in ToolCallRecord.objects.all()}
    assert records["c1"].guardrail == "not_stated"
    assert records["m1"].status == "refused" and records["m1"].guardrail == ""


def test_a_turn_answering_a_decision_states_nothing(conversation):
    assert (
        guardrails.check(
            ToolCall(id="c", name="log_medication", arguments=CREATINE[2]), statement=None
        ).reason
        == guardrails.Reason.NOT_STATED
    )


@pytest.mark.parametrize(
    ("statement", "stated"),
    [
        ("I took my creatine this morning", True),
        ("Taken: 5 g creatine", True),
        ("I had my vitamin D with breakfast", True),
        ("I didn't take it, but I took it later", True),
        ("I haven't taken my creatine", False),
        ("I forgot to take... never took it", False),
        ("I haven’t taken it", False),
        ("my head hurts", False),
        ("", False),
    ],
)
def test_intent_words_are_whole_words_and_not_negated(statement, stated):
    assert guardrails.states_intent(statement, ("took", "taken", "had")) is stated


def test_the_reason_codes_are_the_audit_logs_choices():
    assert {r.value for r in guardrails.Reason} == set(GuardrailReason.values)


def test_staff_filter_the_audit_log_by_guardrail(conversation, client):
    turn(conversation, "I have a terrible headache", ("c1", "log_medication", CREATINE[2]))
    turn(conversation, "I took my creatine this morning", CREATINE)
    client.force_login(make_staff())
    url = reverse("admin:chat_toolcallrecord_changelist")
    page = client.get(url, {"guardrail__exact": "not_stated"}).content.decode()
    assert "1 tool call" in page and "Not stated by the athlete" in page


# --- issue 18 item 14: a symptom is not a statement of having taken something ---------------


def ibuprofen(**extra):
    return ("c1", "log_medication", {"medication_name": "ibuprofen", "kind": "medication", **extra})


@pytest.mark.parametrize(
    "statement",
    [
        "I had a headache",
        "I had a headache and ibuprofen helps with that",
        "my knee hurts, I might take ibuprofen",
        "I had a rough night",
        "should I have taken ibuprofen?",
        "I should have taken ibuprofen before the run",
        "if I had ibuprofen I'd take it",
        "I took a nap, my head hurts",
    ],
)
def test_a_symptom_or_a_plan_is_held_and_the_athlete_asked(conversation, statement):
    reply = turn(conversation, statement, ibuprofen())
    assert nothing_written()
    assert "in your own words" in reply.content
    record = ToolCallRecord.objects.get()
    assert record.status == "refused" and record.guardrail == "not_stated"


@pytest.mark.parametrize(
    ("statement", "call"),
    [
        (
            "I took my aspirin this morning",
            (
                "c1",
                "log_medication",
                {"medication_name": "aspirin", "kind": "medication", "part_of_day": "morning"},
            ),
        ),
        ("took 400 mg ibuprofen after the run", ibuprofen(dose="400 mg")),
        ("I had a headache so I took ibuprofen", ibuprofen()),
        ("ibuprofen taken after the run", ibuprofen()),
        (
            "I had my vitamin D with breakfast",
            ("c1", "log_medication", {"medication_name": "vitamin D", "kind": "supplement"}),
        ),
        ("Took two pills for my back", ibuprofen()),
        ("I had 400mg after lunch", ibuprofen(dose="400 mg")),
        (
            "Slept badly. I took 2.5 mg melatonin before bed",
            ("c1", "log_medication", {"medication_name": "melatonin", "kind": "supplement"}),
        ),
    ],
)
def test_a_statement_of_having_taken_it_is_logged(conversation, statement, call):
    turn(conversation, statement, call)
    assert MedicationLog.objects.count() == 1
    assert ToolCallRecord.objects.get().guardrail == ""
