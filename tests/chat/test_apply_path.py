"""The Apply path, measured (``tests/chat/apply_path.py`` defines rooms, stays and climbing):
following ``batch_id`` from ``chat.proposals.apply`` for one confirmed ``modify_exercise`` call,
its on-commit callbacks included and the model's follow-up turn (the agent task
``chat.recovery.send_run`` hands to the worker) left out.

Issue 19's target is at most 5 rooms in at most 12 stays, never climbing back up. Met: 5 rooms,
12 stays, no climb (41 before the one lifecycle and the one journal, 29 before the plan's one
declaration, 17 before decisions were data). The lifecycle enters the engine once and the engine
enters the program's data layer (which locks the row as its recording starts) and the journal
once each way; the access policy reads the program's people from its row, and the athlete's line
is worded with the engine's count (``BatchResult.counted``), so neither calls back. The executor
(``programs.tools``) decides its change as data (``coach.tools.base.FieldUpdate``: the fields'
old and new values, the exercise described as it is and as the write leaves it, its warm-up sets
a count the engine spells) and writes last, so its one stay is followed by one of the family's
data layer, the write and the recording's close; the engine words the result once, after the run
(``worded``). Then the journal takes the revision as a part, and on commit the library's feed is
renumbered and the follow-up turn handed over (docs/architecture.md, "The Apply path,
measured")."""

from __future__ import annotations

import pytest

from chat import proposals, tasks
from tests.calls import RENAME
from tests.chat.apply_path import room_of, trace
from tests.chat.helpers import first_exercise, propose
from tests.factories import ConversationFactory

pytestmark = pytest.mark.django_db(transaction=False)


@pytest.fixture
def walk(program, monkeypatch, django_capture_on_commit_callbacks):
    conversation = ConversationFactory(program=program)
    batch = propose(conversation, RENAME)
    sent = []
    monkeypatch.setattr(tasks.run_agent, "delay", lambda *args: sent.append(args))

    def apply():
        with django_capture_on_commit_callbacks(execute=True):
            return proposals.apply(
                batch_id=batch.pk, user=conversation.athlete, revision=batch.revision
            )

    walked, decision = trace(apply)
    assert decision.outcome == "applied"
    assert first_exercise(program).name == "Goblet Squat"
    assert len(sent) == 1, "the follow-up turn was handed to the worker, not traced"
    return walked


def test_the_apply_path_enters_at_most_five_rooms(walk):
    assert walk.room_count <= 5, sorted(set(walk.rooms))


def test_the_apply_path_makes_at_most_twelve_stays(walk):
    assert len(walk.rooms) <= 12, walk.steps


def test_the_executor_never_enters_the_engine_and_writes_last(walk):
    """The executor's stay is followed by the family's data layer, its write merged with the
    recording's close (no engine in between: the result is worded after the run), then the
    journal."""
    tools = walk.rooms.index("family tools")
    assert walk.rooms.count("family tools") == 1, walk.steps
    assert walk.steps[tools + 1] == ("programs.services", "object_update")
    assert walk.rooms[tools + 2 : tools + 4] == ["journal", "engine"], walk.steps[tools:]
    assert walk.steps[tools + 3] == ("coach.engine", "_batch")


def test_the_lifecycle_enters_the_engine_once_before_the_decision_is_recorded(walk):
    entered = walk.rooms.index("engine")
    first_back_in_chat = walk.rooms.index("chat", entered)
    assert "engine" not in walk.rooms[:entered] and "journal" not in walk.rooms[:entered]
    assert walk.steps[entered] == ("coach.engine", "apply_batch")
    assert "chat" not in walk.rooms[entered:first_back_in_chat]
    assert walk.steps[first_back_in_chat] == ("chat.proposals.core", "record_decision")


def test_the_decision_is_worded_from_the_engine_s_result_without_calling_it_back(walk):
    """The athlete's line ("You applied 1 change.") uses the count the engine worded for the
    change set's summary (``BatchResult.counted``): once the lifecycle is back, the engine is
    never entered again."""
    back = walk.rooms.index("chat", walk.rooms.index("engine"))
    assert "engine" not in walk.rooms[back:], walk.steps[back:]


def test_the_access_policy_asks_the_program_s_family_nothing(walk):
    """The click's check reads the program's athlete from its row (the family declares fields,
    ``programs.access``), so the lifecycle's first stay runs until it enters the engine."""
    assert walk.rooms[:2] == ["chat", "engine"], walk.steps[:2]


def test_the_apply_path_never_climbs_back_up(walk):
    assert walk.climbs == []


def test_the_rooms_are_the_layers_of_the_picture():
    assert room_of("chat.proposals.lifecycle") == "chat"
    assert room_of("coach.engine") == "engine"
    assert room_of("programs.tools.exercises") == "family tools"
    assert room_of("programs.history.recording") == "family data"
    assert room_of("library.feed") == "family data"
    assert room_of("journal.services") == "journal"
    assert room_of("django.db.transaction") is None
