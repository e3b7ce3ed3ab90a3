"""The message flow through the real parts: a broker (a redis-server, and the embedded Redis on
its unix socket), a `celery worker` process and the fake OpenAI-compatible server over HTTP. The test process plays the web server: it saves the message
(which queues the task on commit) and clicks Apply; the worker process writes the replies."""

import time

import pytest

from chat.models import Message, PendingToolBatch
from chat.proposals import apply as batch_apply
from chat.services import conversation_for_athlete, message_send
from chat.tasks import run_agent
from programs.models import Exercise
from tests.factories import build_program

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

RENAME = {
    "weekNumber": 1,
    "sessionNumber": 1,
    "exerciseNumber": 1,
    "updates": {"name": "Goblet Squat"},
}


def wait_until_done(message: Message, log, timeout: float = 60.0) -> Message:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        message.refresh_from_db()
        if message.status in (Message.Status.COMPLETE, Message.Status.FAILED):
            return message
        time.sleep(0.05)
    raise AssertionError(f"no reply after {timeout} s; worker log:\n{log.read_text()[-3000:]}")


@pytest.fixture
def fake_llm(fake_openai_server, worker_env):
    worker_env.update(
        LLM_PROVIDER="openai",
        LLM_BASE_URL=fake_openai_server.base_url,
        LLM_API_KEY="test-key",
        LLM_MODEL="fake-model",
    )
    return fake_openai_server


def test_a_proposal_waits_for_apply_and_a_redelivered_task_makes_no_second_reply(
    fake_llm, celery_worker_process
):
    _, log = celery_worker_process
    program = build_program(weeks=2, sessions=2, exercises=3)
    conversation = conversation_for_athlete(athlete=program.athlete)
    version = program.version

    fake_llm.enqueue_openai_tool_calls(
        [("call_1", "modify_exercise", RENAME)], text="I can swap it.\n---\nOK\nWhy?"
    )
    user_message, placeholder = message_send(conversation=conversation, text="Swap my squats")
    reply = wait_until_done(placeholder, log)

    assert reply.status == Message.Status.COMPLETE
    assert reply.content == "I can swap it."
    batch = PendingToolBatch.objects.get(conversation=conversation)
    assert batch.status == PendingToolBatch.BatchStatus.PENDING
    assert [c["name"] for c in batch.calls] == ["modify_exercise"]
    program.refresh_from_db()
    assert program.version == version, "a proposal must not write"
    assert (
        Exercise.objects.get(
            session__week__program=program,
            session__week__position=1,
            session__position=1,
            position=1,
        ).name
        != "Goblet Squat"
    )
    assert len(fake_llm.requests) == 1

    # The broker redelivers the task (acks_late): the worker must not reply a second time.
    run_agent.delay(placeholder.pk)
    fake_llm.enqueue_openai_text("A goblet squat holds the weight at your chest.\n---\nThanks")
    _, second = message_send(conversation=conversation, text="What's a goblet squat?")
    wait_until_done(second, log)  # one worker process, FIFO: the duplicate ran before this
    assert Message.objects.filter(reply_to=user_message, role=Message.Role.ASSISTANT).count() == 1
    assert len(fake_llm.requests) == 2
    batch.refresh_from_db()
    assert batch.status == PendingToolBatch.BatchStatus.PENDING, "a message never applies"

    fake_llm.enqueue_openai_text("Done: squats are now goblet squats.")
    decision = batch_apply(batch_id=batch.pk, user=program.athlete, revision=batch.revision)
    assert decision.outcome == "applied"
    ack = wait_until_done(decision.followup, log)

    assert ack.content == "Done: squats are now goblet squats."
    program.refresh_from_db()
    assert program.version == version + 1
    assert (
        Exercise.objects.get(
            session__week__program=program,
            session__week__position=1,
            session__position=1,
            position=1,
        ).name
        == "Goblet Squat"
    )
    worker_log = log.read_text()
    assert worker_log.count("Task chat.tasks.run_agent[") >= 4, "the worker process did the work"
    last_request = fake_llm.requests[-1].json
    assert "clicked Apply Changes" in str(last_request["messages"])
