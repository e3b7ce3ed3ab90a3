"""What the chat and the engine need of the families comes by discovery (``coach.plan``): the plan
a conversation is about (a setting, as ``AUTH_USER_MODEL``, and the family's ``PLAN``), its
adjustments, the preview's what-if, notices, demo data and eval fixtures; nothing names a
family."""

from __future__ import annotations

import datetime
import types

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import override_settings
from django.utils import timezone

from chat import reminders
from chat.models import Conversation, Message
from coach import plan as plan_module
from coach import whatif
from coach.plan import adjustments, declared, plan, plan_model
from coach.tools.base import ToolContext
from programs import plan as programs_plan
from programs.models import Program
from tests.factories import ConversationFactory
from training import plan_adjust
from training import whatif as training_whatif


def with_declarations(monkeypatch, *extra: types.SimpleNamespace) -> None:
    """The installed families' declarations plus ``extra`` (as if more apps declared them)."""
    real = plan_module.declarations()
    monkeypatch.setattr(plan_module, "declarations", lambda: [*real, *extra])


def test_the_plan_is_the_setting_s_model_and_the_conversation_points_at_it():
    assert plan_model() is Program
    assert Conversation._meta.get_field("program").related_model is Program
    with (
        override_settings(SPOTTER_PLAN_MODEL="nowhere.Plan"),
        pytest.raises(ImproperlyConfigured, match=r"nowhere\.Plan"),
    ):
        plan_model()


def test_each_declaration_comes_from_the_family_that_provides_it():
    assert plan() is programs_plan
    assert adjustments() is plan_adjust
    assert plan_module.whatif() is training_whatif
    assert [f.__module__ for f in declared("DEMO")] == [
        "programs.demo",
        "training.demo",
        "library.demo",
        "nutrition.demo",
        "wellness.tools.demo",
    ]
    assert {m.__name__ for m in declared("EVAL")} == {
        "programs.evals",
        "training.evals",
        "library.evals",
    }


def test_two_families_declaring_the_plan_is_a_configuration_error(monkeypatch):
    with_declarations(monkeypatch, types.SimpleNamespace(PLAN=object()))
    with pytest.raises(ImproperlyConfigured, match="Two families declare PLAN"):
        plan()


def test_the_engine_holds_the_plan_declaration_resolved_at_discovery(monkeypatch):
    """The engine locks, reads and records a batch's plan through ``held()``: the family's
    ``PLAN``, resolved once by the registry's discovery (not on each Apply), and again on
    ``resolve()`` (which ``registry.discover()`` calls)."""
    assert plan_module.held() is programs_plan
    assert callable(programs_plan.recording) and callable(programs_plan.version)
    monkeypatch.setattr(plan_module, "declarations", lambda: [])
    assert plan_module.held() is programs_plan, "held until the next discovery"
    try:
        plan_module.resolve()
        assert plan_module.held() is None
    finally:
        monkeypatch.undo()
        plan_module.resolve()
    assert plan_module.held() is programs_plan


def test_without_a_plan_family_the_accessors_say_so(monkeypatch):
    monkeypatch.setattr(plan_module, "declarations", lambda: [])
    with pytest.raises(LookupError, match="PLAN"):
        plan()
    with pytest.raises(LookupError, match="ADJUSTMENTS"):
        adjustments()
    assert plan_module.whatif() is None


@pytest.mark.django_db
def test_a_preview_has_no_what_if_when_no_family_projects_one(monkeypatch):
    conversation = ConversationFactory()
    ctx = ToolContext(athlete=conversation.athlete, program=conversation.program)
    monkeypatch.setattr(plan_module, "declarations", lambda: [])
    assert whatif.key_dates(ctx) == []
    assert whatif.form(ctx, [("End of the program", datetime.date(2030, 1, 1))]) == {}


@pytest.mark.django_db
def test_the_chat_posts_the_notices_of_any_family_that_declares_them(monkeypatch):
    """A new family's notices reach the athlete's chat with no edit of the chat."""
    conversation = ConversationFactory()
    claimed: list[str] = []

    def claim(item: str) -> bool:
        if item in claimed:
            return False
        claimed.append(item)
        return True

    toy = types.SimpleNamespace(
        due=lambda now: ["stretch"],
        claim=claim,
        athlete=lambda item: conversation.athlete,
        label=lambda item: item,
        text=lambda item: f"Time to {item}",
        model_text=lambda item: f"(Spotter reminded the athlete to {item}.)",
    )
    with_declarations(monkeypatch, types.SimpleNamespace(NOTICES=(toy,)))
    now = timezone.now()
    assert reminders.deliver_due(now) == 1
    assert reminders.deliver_due(now) == 0  # claimed once
    message = Message.objects.get(conversation=conversation, content="Time to stretch")
    assert message.role == Message.Role.ASSISTANT
    assert message.llm_content == "(Spotter reminded the athlete to stretch.)"
