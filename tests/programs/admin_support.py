"""Helpers for the coach admin tests: make a coach, reach an object's change page, read its form
as a browser would send it, post it back, and read positions and the program version."""

from django.urls import reverse

from programs.admin import ensure_coach_group
from programs.models import Program, Session
from tests.factories import CoachFactory
from tests.programs.admin_html import form_data


def make_coach(username: str):
    coach = CoachFactory(username=username)
    coach.groups.add(ensure_coach_group())
    return coach


def change_url(obj) -> str:
    return reverse(f"admin:programs_{obj._meta.model_name}_change", args=[obj.pk])


def page_data(client, obj) -> dict:
    response = client.get(change_url(obj))
    assert response.status_code == 200
    return form_data(response.content.decode(), form_id=f"{obj._meta.model_name}_form")


def post(client, obj, data):
    response = client.post(change_url(obj), data)
    if response.status_code == 200:  # the form came back with errors
        errors = [response.context["adminform"].form.errors]
        errors += [fs.formset.errors for fs in response.context["inline_admin_formsets"]]
        errors += [fs.formset.non_form_errors() for fs in response.context["inline_admin_formsets"]]
        raise AssertionError(f"The admin refused the form: {errors}")
    assert response.status_code == 302, response.status_code
    return response


def inline_index(data: dict, prefix: str, pk: int) -> int:
    for key, value in data.items():
        if key.startswith(f"{prefix}-") and key.endswith("-id") and value == str(pk):
            return int(key.split("-")[1])
    raise AssertionError(f"No {prefix} row with id {pk}")


def exercise_names(session) -> list[str]:
    return list(session.exercises.order_by("position").values_list("name", flat=True))


def positions(queryset) -> list[int]:
    return list(queryset.order_by("position").values_list("position", flat=True))


def first_session(program) -> Session:
    return Session.objects.get(week__program=program, week__position=1, position=1)


def version_of(program) -> int:
    return Program.objects.get(pk=program.pk).version
