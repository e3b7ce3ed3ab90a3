"""The coach's calendar (issue 22, part 2): a drag of a session is the schedule family's
reschedule, previewed (the chat card's before → after) with nothing written, applied as one change
set by the coach (the revision, the journal and the admin's LogEntry name the coach), and undone;
a taken day asks swap, replace or push; a library workout dropped on a day is the library's
scheduling call; and who may reach what, with crafted ids."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import Group

from access.policy import STAFF_GROUP
from coach.engine import apply_batch
from journal.models import ChangeSet
from programs.admin import ensure_staff_group
from programs.models import Program, ProgramRevision, Session
from tests.factories import LibraryWorkoutFactory, UserFactory
from tests.training.calendar_support import coached_program, move, post, session, url
from training.plan_adjust import move_calls

pytestmark = pytest.mark.django_db

FRIDAY = "2026-11-06"  # week 1's Friday: no session
FRIDAY_DATE = datetime.date(2026, 11, 6)
TUESDAY = "2026-11-03"  # week 1, session 2


@pytest.fixture
def program():
    return coached_program("coach-ann", name="Ann's block")


@pytest.fixture
def coach_client(client, program):
    client.force_login(program.coach)
    return client


def dates(program) -> dict[int, datetime.date]:
    return dict(Session.objects.filter(week__program=program).values_list("pk", "scheduled_date"))


def test_the_page_shows_month_and_week_with_planned_and_done(coach_client, program):
    done = session(program, 1, 3)
    Session.objects.filter(pk=done.pk).update(completed=True)
    page = coach_client.get(url(program.athlete), {"date": "2026-11-02"})
    assert page.status_code == 200
    text = page.content.decode()
    assert "November 2026" in text and "Ann&#x27;s block" in text
    assert f'data-session="{session(program, 1, 1).pk}" draggable="true"' in text
    assert "Move to…" in text
    assert f'data-session="{done.pk}" title=' in text  # done: shown, never dragged
    assert "Completed" in text and "Missed" in text
    week = coach_client.get(url(program.athlete), {"view": "week", "date": "2026-11-02"})
    assert "Week of 2 November 2026" in week.content.decode()


def test_a_drag_previews_writes_nothing_then_applies_as_one_change_by_the_coach_and_undoes(
    coach_client, program
):
    first = session(program, 1, 1)
    before = dates(program)
    preview = move(coach_client, program, first, FRIDAY)
    answer = preview.json()
    assert answer["ok"] and not answer["applied"]
    assert "<del>2026-11-02 (Monday)</del>" in answer["html"]
    assert "<ins>2026-11-06 (Friday)</ins>" in answer["html"]
    assert dates(program) == before  # a preview writes nothing

    applied = post(coach_client, program, "apply", kind="move", session=first.pk, date=FRIDAY)
    answer = applied.json()
    assert answer["applied"] and "Saved 1 change as one change." in answer["html"]
    assert session(program, 1, 1).scheduled_date == datetime.date(2026, 11, 6)
    revision = ProgramRevision.objects.filter(program=program).latest("number")
    assert (revision.actor, revision.via, revision.source) == (program.coach, "admin", "calendar")
    change_set = ChangeSet.objects.get(pk=answer["change_set"])
    assert change_set.athlete == program.athlete
    log = LogEntry.objects.get(object_id=str(program.pk))
    assert log.user == program.coach and "Coach's calendar" in log.change_message

    undone = post(coach_client, program, "undo", change_set=answer["change_set"])
    assert undone.status_code == 200 and "Undid" in undone.json()["html"]
    assert dates(program) == before
    assert LogEntry.objects.filter(object_id=str(program.pk)).count() == 2


def test_a_taken_day_asks_swap_replace_or_push_and_each_follows_the_tools_rules(
    coach_client, program
):
    first, second = session(program, 1, 1), session(program, 1, 2)
    asked = move(coach_client, program, first, TUESDAY).json()
    assert asked["choose"] == ["swap", "replace", "push"] and not asked["ok"]
    assert "Week 1, Session 2" in asked["html"]
    swap = move(coach_client, program, first, TUESDAY, strategy="swap").json()
    assert "<ins>2026-11-02 (Monday)</ins>" in swap["html"]  # the other goes to Monday
    replace = move(coach_client, program, first, TUESDAY, strategy="replace").json()
    assert "Remove" in replace["html"] and replace["ok"]
    post(
        coach_client, program, "apply", kind="move", session=first.pk, date=TUESDAY, strategy="swap"
    )
    assert session(program, 1, 1).scheduled_date == datetime.date(2026, 11, 3)
    assert Session.objects.get(pk=second.pk).scheduled_date == datetime.date(2026, 11, 2)
    # applying without a choice on a taken day is refused in words, nothing written
    refused = post(coach_client, program, "apply", kind="move", session=second.pk, date=TUESDAY)
    assert refused.status_code == 400 and "choose swap, replace or push" in refused.json()["html"]


def test_a_library_workout_dropped_on_a_day_is_the_librarys_scheduling_call(coach_client, program):
    workout = LibraryWorkoutFactory(owner=program.coach, scope="shared", title="Hill repeats")
    page = coach_client.get(url(program.athlete), {"date": "2026-11-02"}).content.decode()
    assert "Hill repeats" in page and f'data-workout="{workout.pk}"' in page
    count = Session.objects.filter(week__program=program).count()
    preview = post(
        coach_client, program, "preview", kind="library", workout=workout.pk, date=FRIDAY
    )
    assert preview.json()["ok"] and "Hill repeats" in preview.json()["html"]
    assert Session.objects.filter(week__program=program).count() == count
    post(coach_client, program, "apply", kind="library", workout=workout.pk, date=FRIDAY)
    added = Session.objects.filter(week__program=program, scheduled_date=FRIDAY)
    assert [s.name for s in added] == ["Hill repeats"]


def test_a_stale_page_is_refused_in_words_and_nothing_is_written(coach_client, program):
    first = session(program, 1, 1)
    Program.objects.filter(pk=program.pk).update(version=program.version + 5)
    answer = coach_client.post(
        url(program.athlete, "apply"),
        {"version": program.version, "kind": "move", "session": first.pk, "date": FRIDAY},
    ).json()
    assert answer["stale"] and "changed since you opened the calendar" in answer["html"]
    assert session(program, 1, 1).scheduled_date == datetime.date(2026, 11, 2)


@pytest.mark.parametrize(
    "fields",
    [
        {"kind": "jump", "date": FRIDAY},
        {"kind": "move", "date": "next friday"},
        {"kind": "move", "date": FRIDAY, "session": "x"},
        {"kind": "move", "date": FRIDAY, "strategy": "shove"},
        {"kind": "move", "date": "2026-12-31"},  # outside the program: the tool's own words
    ],
)
def test_bad_input_gets_words_and_changes_nothing(coach_client, program, fields):
    before = dates(program)
    fields = {"session": session(program, 1, 1).pk, **fields}
    response = post(coach_client, program, "apply", **fields)
    assert response.status_code in (200, 400)
    answer = response.json()
    assert not answer["applied"] and "errornote" in answer["html"]
    assert dates(program) == before


# --- access ------------------------------------------------------------------------------------


STEPS = ("calendar", "preview", "apply", "undo")


def _request(client, program, step, **fields):
    if step == "calendar":
        return client.get(url(program.athlete))
    return post(client, program, step, **fields)


@pytest.mark.parametrize("step", STEPS)
def test_another_coachs_athlete_is_not_found_on_every_url(client, program, step):
    theirs = coached_program("coach-bob")
    client.force_login(program.coach)
    before = dates(theirs)
    fields = {"kind": "move", "session": session(theirs, 1, 1).pk, "date": FRIDAY, "change_set": 1}
    assert _request(client, theirs, step, **fields).status_code == 404
    assert dates(theirs) == before


def test_a_crafted_session_or_workout_of_someone_else_is_not_found(coach_client, program):
    theirs = coached_program("coach-bob")
    their_session = session(theirs, 1, 1)
    private = LibraryWorkoutFactory(title="Someone's private")
    before = dates(theirs)
    for step in ("preview", "apply"):
        crafted = post(
            coach_client, program, step, kind="move", session=their_session.pk, date=FRIDAY
        )
        assert crafted.status_code == 404
        workout = post(coach_client, program, step, kind="library", workout=private.pk, date=FRIDAY)
        assert workout.status_code == 404
    assert dates(theirs) == before


def test_a_crafted_change_set_of_another_athlete_is_not_undone(coach_client, program):
    theirs = coached_program("coach-bob")
    other_client = type(coach_client)()
    other_client.force_login(theirs.coach)
    applied = post(
        other_client, theirs, "apply", kind="move", session=session(theirs, 1, 1).pk, date=FRIDAY
    ).json()
    assert applied["applied"]
    crafted = post(coach_client, program, "undo", change_set=applied["change_set"])
    assert crafted.status_code == 404
    assert session(theirs, 1, 1).scheduled_date == datetime.date(2026, 11, 6)


@pytest.mark.parametrize("step", ("preview", "apply", "undo"))
def test_staff_read_the_calendar_but_change_nothing(client, program, step):
    staff = UserFactory(username="staff-sue", is_staff=True)
    staff.groups.add(ensure_staff_group())
    assert Group.objects.filter(name=STAFF_GROUP).exists()
    client.force_login(staff)
    assert client.get(url(program.athlete)).status_code == 200
    fields = {"kind": "move", "session": session(program, 1, 1).pk, "date": FRIDAY}
    assert post(client, program, step, change_set=1, **fields).status_code == 403


@pytest.mark.parametrize("step", STEPS)
def test_an_athlete_and_nobody_are_sent_to_sign_in(client, program, step):
    assert _request(client, program, step).status_code == 302
    client.force_login(program.athlete)
    response = _request(client, program, step)
    assert response.status_code == 302 and "/login/" in response["Location"]


def test_the_roster_athlete_page_links_the_calendar(coach_client, program):
    page = coach_client.get(f"/admin/roster/athletes/{program.athlete.pk}/").content.decode()
    assert f'href="{url(program.athlete)}"' in page


def test_the_undo_reaches_only_changes_this_calendar_applied(coach_client, program):
    elsewhere = apply_batch(
        athlete=program.athlete,
        program=program,
        user=program.athlete,
        calls=[
            move_calls(session=session(program, 1, 1), new_date=FRIDAY_DATE, strategy="swap")[
                0
            ].to_dict()
        ],
        version=Program.objects.get(pk=program.pk).version,
        via="chat",
    )
    assert elsewhere.success and elsewhere.change_set_id
    refused = post(coach_client, program, "undo", change_set=elsewhere.change_set_id)
    assert refused.status_code == 404
    assert session(program, 1, 1).scheduled_date == FRIDAY_DATE
    assert ChangeSet.objects.get(pk=elsewhere.change_set_id).undone_at is None
