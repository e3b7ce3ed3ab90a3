"""Streamed replies through the real parts: a `celery worker` process writes the reply from the fake
model streaming over HTTP and publishes it to the broker's Redis (a redis-server on TCP, and the
embedded one on its unix socket); the test process plays the web server and reads the SSE view
while the worker is still writing."""

import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.test import Client
from django.urls import reverse

from chat.models import Message
from chat.services import conversation_for_athlete, message_send
from config import embedded_redis
from tests.factories import build_program

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

WORDS = ["Squat ", "on ", "Monday, ", "deadlift ", "on ", "Thursday."]


@pytest.fixture
def streaming(fake_openai_server, worker_env, broker, settings, tmp_path):
    worker_env.update(
        LLM_PROVIDER="openai",
        LLM_BASE_URL=fake_openai_server.base_url,
        LLM_API_KEY="test-key",
        LLM_MODEL="fake-model",
        CHAT_STREAMING="1",
    )
    settings.CHAT_STREAMING = True
    settings.CHAT_STREAM_REDIS_URL = (
        broker["env"]["REDIS_URL"] or f"unix://{embedded_redis.socket_path(tmp_path)}"
    )
    settings.CHAT_STREAM_MAX_SECONDS = 30
    return fake_openai_server


def sse_events(chunks):
    """Parse SSE chunks as they come: yields ``(event, data, id)``."""
    buffer = ""
    for chunk in chunks:
        buffer += chunk.decode()
        while "\n\n" in buffer:
            block, buffer = buffer.split("\n\n", 1)
            fields = {}
            data = []
            for line in block.split("\n"):
                name, _, value = line.partition(": ")
                if name == "data":
                    data.append(value)
                elif name in ("event", "id"):
                    fields[name] = value
            if "event" in fields:
                yield fields["event"], "\n".join(data), fields.get("id")


def get(client: Client, url: str, **extra):
    """The test client calls the async view through ``async_to_sync``, which refuses a thread
    where an event loop runs, and once a browser test has run in this process Playwright's sync
    API keeps one in the main thread: the request is made from a thread of its own, as a server
    would (the streamed body is still read here, as it comes)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(client.get, url, **extra).result()


def test_the_page_reads_the_reply_while_the_worker_writes_it(streaming, celery_worker_process):
    _, log = celery_worker_process
    program = build_program(weeks=1, sessions=2, exercises=2)
    conversation = conversation_for_athlete(athlete=program.athlete)
    streaming.enqueue_openai_stream("".join(WORDS), pieces=WORDS, chunk_delay=0.25)
    _, placeholder = message_send(conversation=conversation, text="When do I lift?")

    client = Client()
    client.force_login(program.athlete)
    url = reverse("chat:message_stream", args=[placeholder.pk])
    response = get(client, url)
    assert response.status_code == 200
    deltas, statuses_at_first_delta, final, ids = [], [], None, []
    deadline = time.monotonic() + 60
    for event, data, event_id in sse_events(response.streaming_content):
        assert time.monotonic() < deadline, log.read_text()[-3000:]
        if event == "delta":
            if not deltas:
                statuses_at_first_delta.append(Message.objects.get(pk=placeholder.pk).status)
            deltas.append(data)
            ids.append(event_id)
        elif event == "done":
            final = data
            break
    response.close()

    assert statuses_at_first_delta == [Message.Status.RUNNING], "text before the reply is saved"
    assert "".join(deltas) == "".join(WORDS)
    reply = Message.objects.get(pk=placeholder.pk)
    assert reply.status == Message.Status.COMPLETE and reply.content == "".join(WORDS)
    assert final is not None and reply.content in final and "bubble-thinking" not in final
    assert streaming.last_request.json["stream"] is True

    # A browser that dropped after the third event resumes there; the reply is saved by now,
    # so what it missed comes as the final event alone.
    resumed = get(client, url, HTTP_LAST_EVENT_ID=ids[2])
    events = [event for event, _, _ in sse_events(resumed.streaming_content)]
    assert events == ["done"]
