"""The workout log's form (issue 18 items 20, 21): a bad field keeps everything typed and is marked
beside itself; working sets are numbered as the athlete counts them, after the warm-ups."""

from __future__ import annotations

import datetime
from html.parser import HTMLParser

import pytest

from programs.models import SetResult
from tests.factories import (
    ExerciseFactory,
    ProgramFactory,
    SessionFactory,
    SetResultFactory,
    UserFactory,
    WeekFactory,
)
from training.models import Activity

pytestmark = pytest.mark.django_db
TODAY = datetime.datetime.now(datetime.UTC).date()


class Page(HTMLParser):
    """The form's inputs and textareas by name (their attributes, a textarea's text as
    ``value``), the set rows' labels, and the text of each element by id."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.fields: dict[str, dict] = {}
        self.labels: list[str] = []
        self.by_id: dict[str, str] = {}
        self._open: list[tuple[str, str | None, str | None]] = []  # tag, id, textarea name
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "input" and "name" in attrs:
            self.fields[attrs["name"]] = attrs
            return
        if tag == "textarea":
            self.fields[attrs["name"]] = {**attrs, "value": ""}
        self._open.append((tag, attrs.get("id"), attrs.get("class")))
        if tag == "textarea" or attrs.get("id"):
            self.by_id.setdefault(attrs.get("id") or "", "")

    def handle_endtag(self, tag):
        while self._open and self._open.pop()[0] != tag:
            pass

    def handle_data(self, data):
        for tag, element_id, _css in self._open:
            if element_id:
                self.by_id[element_id] = self.by_id.get(element_id, "") + data
            if tag == "textarea":
                name = next(n for n, f in self.fields.items() if f.get("id") == element_id)
                text = self.fields[name]["value"] + data
                self.fields[name]["value"] = text.removeprefix("\n")  # as a browser reads it
        if self._open and self._open[-1][2] == "set-label":
            self.labels.append(data.strip())


@pytest.fixture
def athlete(client):
    user = UserFactory()
    client.force_login(user)
    return user


@pytest.fixture
def squat(athlete):
    program = ProgramFactory(athlete=athlete, start_date=TODAY)
    week = WeekFactory(program=program, start_date=TODAY, end_date=TODAY + datetime.timedelta(6))
    session = SessionFactory(week=week, scheduled_date=TODAY, name="Legs")
    return ExerciseFactory(session=session, name="Back Squat", warmup_sets=2, working_sets=3)


def url(exercise) -> str:
    return f"/training/log/{exercise.session_id}/"


def test_an_invalid_set_field_keeps_everything_typed_and_marks_that_field(client, squat):
    typed = {
        f"set-{squat.pk}-1-reps": "10",
        f"set-{squat.pk}-1-load": "60 kg",
        f"set-{squat.pk}-3-reps": "5",
        f"set-{squat.pk}-3-load": "100 kg",
        f"set-{squat.pk}-3-rpe": "8",
        f"set-{squat.pk}-4-reps": "five",
        f"set-{squat.pk}-4-load": "100 kg",
        "rating": "4",
        "rpe": "8",
        "duration_min": "55",
        "notes": "grinder on the last rep",
    }
    response = client.post(url(squat), typed)
    assert response.status_code == 422
    page = Page(response.content.decode())
    for name, value in typed.items():
        assert page.fields[name].get("value") == value, name
    bad = page.fields[f"set-{squat.pk}-4-reps"]
    assert bad["aria-invalid"] == "true"
    assert page.by_id[bad["aria-describedby"]] == "Reps must be a whole number."
    marked = [name for name, attrs in page.fields.items() if attrs.get("aria-invalid")]
    assert marked == [f"set-{squat.pk}-4-reps"]
    assert "nothing was saved yet" in response.content.decode()
    assert not SetResult.objects.exists() and not Activity.objects.exists()


def test_an_invalid_session_field_keeps_the_typed_sets(client, squat):
    typed = {f"set-{squat.pk}-3-reps": "5", f"set-{squat.pk}-3-rpe": "7.5", "rating": "9"}
    response = client.post(url(squat), typed)
    assert response.status_code == 422
    page = Page(response.content.decode())
    assert page.fields[f"set-{squat.pk}-3-reps"]["value"] == "5"
    assert page.fields[f"set-{squat.pk}-3-rpe"]["value"] == "7.5"
    assert page.fields["rating"]["aria-invalid"] == "true"
    assert not SetResult.objects.exists()


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("rpe", "12", "RPE goes from 1 to 10."),
        ("rpe", "hard", "RPE must be a number from 1 to 10."),
        ("reps", "201", "Reps go from 0 to 200."),
        ("load", "x" * 101, "A load is at most 100 characters."),
    ],
)
def test_each_bad_set_value_is_named_beside_its_field(client, squat, field, value, message):
    name = f"set-{squat.pk}-5-{field}"
    response = client.post(url(squat), {name: value, f"set-{squat.pk}-3-reps": "5"})
    page = Page(response.content.decode())
    assert page.fields[name]["value"] == value
    assert page.by_id[page.fields[name]["aria-describedby"]] == message


def test_working_sets_are_numbered_after_the_warm_ups(client, squat):
    page = Page(client.get(url(squat)).content.decode())
    assert page.labels == ["Warm-up 1", "Warm-up 2", "Set 1", "Set 2", "Set 3"]
    reps = page.fields[f"set-{squat.pk}-3-reps"]
    assert reps["aria-label"] == "Back Squat set 1 reps"
    assert reps["placeholder"] == squat.reps


def test_the_first_working_set_is_stored_after_the_warm_ups(client, squat):
    response = client.post(url(squat), {f"set-{squat.pk}-3-reps": "5", "rating": "4"})
    assert response.status_code == 302
    assert list(SetResult.objects.values_list("set_number", "reps", "is_warmup")) == [(3, 5, False)]


def test_logged_sets_are_shown_again(client, squat):
    SetResultFactory(exercise=squat, set_number=3, reps=6, load="90 kg")
    page = Page(client.get(url(squat)).content.decode())
    assert page.fields[f"set-{squat.pk}-3-reps"]["value"] == "6"
    assert page.fields[f"set-{squat.pk}-3-load"]["value"] == "90 kg"
