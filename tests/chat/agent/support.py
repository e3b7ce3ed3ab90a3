"""What the agent loop tests share besides fixtures (those are in ``conftest.py``): the athlete
sends a message, and the agent runs the turn that answers it."""

from django.db import transaction

from chat.agent import run_turn
from chat.services import message_send


def send(conversation, text="change something"):
    with transaction.atomic():
        user_message, placeholder = message_send(conversation=conversation, text=text)
    return user_message, placeholder


def reply(conversation, provider, text="change something"):
    _, placeholder = send(conversation, text)
    run_turn(placeholder=placeholder, provider=provider)
    placeholder.refresh_from_db()
    return placeholder
