"""The data ``bench_http`` drives: run inside the throwaway environment (eager tasks, offline coach)."""

from __future__ import annotations

import contextlib
import datetime
import secrets
from collections.abc import Iterator
from importlib import import_module

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.utils import timezone
from django.utils.crypto import get_random_string

from chat.proposals import open_batch
from chat.services import conversation_for_athlete, message_send
from coach.plan import plan
from config.celery import app as celery_app

PROPOSAL = "rename exercise 1.1.1 to Goblet Squat"


@contextlib.contextmanager
def _queued_not_run() -> Iterator[None]:
    """Send tasks to the broker (where no worker takes them) instead of running them here."""
    celery_app.conf.task_always_eager = False
    try:
        yield
    finally:
        celery_app.conf.task_always_eager = True


def _logged_in(user) -> dict[str, str]:
    """A session as the login view makes it (as the test client's force_login does)."""
    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.save()
    return {"sessionid": store.session_key, "csrftoken": get_random_string(32)}


def seed(*, writers: int, athletes: int = 0) -> dict:
    users = get_user_model().objects
    today = timezone.localdate()
    monday = today - datetime.timedelta(days=today.weekday())
    password = secrets.token_urlsafe(12)
    main = users.create_user(username="bench-athlete", password=password)
    plan().bulk(athlete=main, weeks=8, sessions=4, exercises=6, start_date=monday)
    conversation = conversation_for_athlete(athlete=main)
    for text in ("help", "What is on today?", "How heavy should my squat be?"):
        message_send(conversation=conversation, text=text)
    with _queued_not_run():
        _, pending = message_send(conversation=conversation, text="Are you there?")
    seeded_writers = []
    for index in range(writers):
        athlete = users.create(username=f"bench-writer-{index}")
        plan().bulk(athlete=athlete, weeks=4, sessions=3, exercises=5, start_date=monday)
        chat = conversation_for_athlete(athlete=athlete)
        message_send(conversation=chat, text=PROPOSAL)
        batch = open_batch(conversation=chat)
        if batch is None:
            raise RuntimeError(f"the offline coach proposed nothing for {PROPOSAL!r}")
        seeded_writers.append(
            {
                "conversation": chat.pk,
                "batch": batch.pk,
                "revision": batch.revision,
                "version": batch.program_version,
                "cookies": _logged_in(athlete),
            }
        )
    # The capacity mix's athletes: a program and a conversation each, nothing pending.
    mix = []
    for index in range(athletes):
        athlete = users.create(username=f"bench-mix-{index}")
        plan().bulk(athlete=athlete, weeks=4, sessions=3, exercises=5, start_date=monday)
        chat = conversation_for_athlete(athlete=athlete)
        with _queued_not_run():  # a reply that stays pending: the stream each post opens
            _, waiting = message_send(conversation=chat, text="Are you there?")
        mix.append({"conversation": chat.pk, "reply": waiting.pk, "cookies": _logged_in(athlete)})
    return {
        "mix": mix,
        "cookies": _logged_in(main),
        "username": main.username,
        "password": password,
        "pending_message": pending.pk,
        "conversation": conversation.pk,
        "writers": seeded_writers,
    }
