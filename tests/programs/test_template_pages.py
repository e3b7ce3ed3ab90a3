"""The template's admin pages as a coach uses them: save a program as a template, assign it,
edit it with the one-page editor, see each athlete's proposal with their own dry run, apply to
some; and the propagation page's query count, the same for 2 athletes × 4 weeks as for 6 × 16."""

from __future__ import annotations

import datetime
import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from programs.models import Program, ProgramTemplate, TemplateAssignment
from programs.plan_templates import propagate_views
from programs.plan_templates.trees import record_version
from tests.factories import build_program
from tests.programs.admin_support import make_coach
from tests.programs.editor_support import page_tree
from tests.programs.template_support import (
    MONDAY,
    athletes_of_coach,
    edit_template,
    exercise_at,
    give,
    template_of,
)

pytestmark = pytest.mark.django_db


def turl(name: str, template, *args) -> str:
    return reverse(f"admin:programs_programtemplate_{name}", args=[template.pk, *args])


@pytest.fixture
def coach():
    return make_coach("coach-ann")


@pytest.fixture
def coach_client(client, coach):
    client.force_login(coach)
    return client


def test_save_assign_edit_and_propose_through_the_pages(coach_client, coach):
    program = build_program(weeks=2, sessions=2, exercises=2, coach=coach, start_date=MONDAY)
    save_url = reverse("admin:programs_program_save_as_template", args=[program.pk])
    assert coach_client.get(save_url).status_code == 200
    response = coach_client.post(save_url, {"name": "Team block"})
    template = ProgramTemplate.objects.get(coach=coach)
    assert response.status_code == 302 and template.name == "Team block"
    page = coach_client.get(reverse("admin:programs_programtemplate_changelist"))
    assert "Team block" in page.content.decode()
    programs_page = coach_client.get(reverse("admin:programs_program_changelist"))
    assert (
        f"/admin/programs/program/{template.program_id}/change/"
        not in programs_page.content.decode()
    )

    sam, kim = athletes_of_coach(coach, 2)
    assert coach_client.get(turl("assign", template)).status_code == 200
    response = coach_client.post(
        turl("assign", template),
        {
            "athlete": [sam.pk, kim.pk],
            f"start-{sam.pk}": "2026-11-30",
            f"start-{kim.pk}": "2026-12-07",
        },
    )
    assert response.status_code == 302
    sams = TemplateAssignment.objects.get(program__athlete=sam)
    assert sams.program.weeks.get(position=1).start_date == datetime.date(2026, 11, 30)

    assert coach_client.get(turl("editor", template)).status_code == 200
    tree = page_tree(template.program)
    tree["weeks"][0]["sessions"][0]["exercises"][0]["fields"]["reps"] = "3"
    answer = coach_client.post(
        turl("editor_apply", template), json.dumps(tree), content_type="application/json"
    ).json()
    assert answer["applied"] and "Propose this change to 2 athletes" in answer["html"]

    page = coach_client.get(turl("propagation", template)).content.decode()
    assert page.count('class="tp-card"') == 2
    dry = coach_client.post(turl("dry_run", template, sams.pk))
    assert dry.status_code == 200
    assert "<ins>3</ins>" in dry.content.decode()
    latest = record_version(template)
    response = coach_client.post(
        turl("propagate", template),
        {"version": latest.number, "apply": [sams.pk], f"seen-{sams.pk}": sams.program.version},
    )
    assert response.status_code == 302
    assert exercise_at(sams.program, 1, 1, 1).reps == "3"
    kims = TemplateAssignment.objects.get(program__athlete=kim)
    assert exercise_at(kims.program, 1, 1, 1).reps != "3"


def test_a_bad_start_date_is_said_in_words_and_nothing_is_made(coach_client, coach):
    template = template_of(coach)
    (sam,) = athletes_of_coach(coach, 1)
    before = Program.objects.count()
    response = coach_client.post(
        turl("assign", template), {"athlete": [sam.pk], f"start-{sam.pk}": "next week"}
    )
    assert response.status_code == 400
    assert "Give a start date like" in response.content.decode()
    assert Program.objects.count() == before


def propagation_queries(client, coach, athletes: int, weeks: int) -> int:
    template = template_of(coach, weeks=weeks, sessions=3, exercises=3)
    people = athletes_of_coach(coach, athletes, prefix=f"q{athletes}x{weeks}")
    give(template, coach, people, [MONDAY] * athletes)

    def change(tree):
        for week in tree["weeks"]:
            week["sessions"][0]["exercises"][0]["fields"]["reps"] = "4"

    edit_template(template, coach, change)
    url = turl("propagation", template)
    client.get(url)  # the version is recorded on the first visit
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    assert response.content.decode().count('class="tp-card"') == athletes
    return len(queries)


def test_the_propagation_page_query_count_grows_with_neither_athletes_nor_weeks(
    coach_client, coach
):
    small = propagation_queries(coach_client, coach, athletes=2, weeks=4)
    large = propagation_queries(coach_client, coach, athletes=6, weeks=16)
    assert small == large, (small, large)


def test_the_template_editor_query_count_grows_not_with_weeks(coach_client, coach):
    counts = []
    for weeks in (4, 16):
        template = template_of(coach, weeks=weeks, sessions=3, exercises=3)
        give(
            template,
            coach,
            athletes_of_coach(coach, weeks // 2, prefix=f"e{weeks}"),
            [MONDAY] * (weeks // 2),
        )
        with CaptureQueriesContext(connection) as queries:
            assert coach_client.get(turl("editor", template)).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1], counts


def test_the_propagation_page_shows_a_bounded_number_of_athletes_per_page(
    coach_client, coach, monkeypatch
):
    monkeypatch.setattr(propagate_views, "PER_PAGE", 2)
    template = template_of(coach)
    give(template, coach, athletes_of_coach(coach, 3), [MONDAY] * 3)

    def change(tree):
        tree["weeks"][0]["sessions"][0]["exercises"][0]["fields"]["reps"] = "4"

    edit_template(template, coach, change)
    first = coach_client.get(turl("propagation", template)).content.decode()
    second = coach_client.get(turl("propagation", template) + "?page=2").content.decode()
    assert (first.count('class="tp-card"'), second.count('class="tp-card"')) == (2, 1)
    assert "Athletes 1–2 of 3 behind" in first


def test_deleting_a_template_deletes_its_program_and_leaves_the_athletes_theirs(
    coach_client, coach
):
    template = template_of(coach)
    made = give(template, coach, athletes_of_coach(coach, 2), [MONDAY] * 2)
    url = reverse("admin:programs_programtemplate_delete", args=[template.pk])
    assert coach_client.post(url, {"post": "yes"}).status_code == 302
    assert not ProgramTemplate.objects.exists()
    assert not Program.objects.filter(pk=template.program_id).exists()
    assert not TemplateAssignment.objects.exists()
    assert Program.objects.filter(pk__in=[a.program_id for a in made]).count() == 2


def test_the_templates_page_says_who_uses_it_from_which_version(coach_client, coach):
    template = template_of(coach)
    (sam,) = athletes_of_coach(coach, 1)
    give(template, coach, [sam], [MONDAY])
    page = coach_client.get(reverse("admin:programs_programtemplate_change", args=[template.pk]))
    assert f"{sam.username} from 2026-11-02: made from version 1, in step with version 1" in (
        page.content.decode()
    )
