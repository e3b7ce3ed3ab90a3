"""Fixtures of the agent loop tests (``test_turn.py``, ``test_tool_calls.py``): a conversation about
the shared ``program``."""

import pytest

from tests.factories import ConversationFactory


@pytest.fixture
def conversation(program):
    return ConversationFactory(program=program)
