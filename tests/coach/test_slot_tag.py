"""``{% slot %}`` renders the families' templates in the page's own context."""

from __future__ import annotations

import copy
from types import SimpleNamespace

import pytest
from django.conf import settings
from django.template import Context, Template
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from tests.factories import build_program

CALLS: list[str] = []


def counting(request):
    """A context processor that counts how often a page's context is built."""
    CALLS.append(request.path)
    return {}


def _templates_with_counter():
    templates = copy.deepcopy(settings.TEMPLATES)
    templates[0]["OPTIONS"]["context_processors"].append(f"{__name__}.counting")
    return templates


@pytest.mark.django_db
def test_a_page_with_slots_builds_its_context_once(client):
    """The chat page fills two slots ("composer", "chat"); each used to render a flattened copy
    with the request, running every context processor again."""
    program = build_program(weeks=1, sessions=1, exercises=1, start_date=timezone.localdate())
    client.force_login(program.athlete)
    with override_settings(TEMPLATES=_templates_with_counter()):
        CALLS.clear()
        response = client.get(reverse("chat:home"), follow=True)
    assert response.status_code == 200
    assert 'name="csrfmiddlewaretoken"' in response.content.decode()
    assert len(CALLS) == 1


def test_what_a_slot_sets_stays_in_the_slot(monkeypatch):
    monkeypatch.setattr("coach.templatetags.slots.slots", lambda name: ["chat/_slot_probe.html"])
    monkeypatch.setattr(
        "coach.templatetags.slots.get_template",
        lambda name: SimpleNamespace(
            template=Template("{% with probe='inside' %}{{ probe }}{% endwith %}{{ shown }}")
        ),
    )
    page = Template('{% load slots %}[{% slot "any" %}]{{ probe|default:"unset" }}')
    assert page.render(Context({"shown": "!"})) == "[inside!]unset"
