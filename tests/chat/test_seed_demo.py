"""``manage.py seed_demo``: the demo users, groups and 8-week program, and that running it again
changes nothing the athlete did."""

import datetime
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone

from chat import plan_actions
from library.models import LibraryWorkout
from programs.admin import COACHES_GROUP, STAFF_GROUP
from programs.demo import DEMO_LOGINS, DEMO_PROGRAM_NAME, seed_demo
from programs.models import CardioBlock, CardioType, Exercise, Program, Session, Week
from tests.coach.tool_helpers import apply, call
from tests.factories import ConversationFactory
from training import plan_adjust

pytestmark = pytest.mark.django_db

User = get_user_model()


def run_seed(*args: str) -> str:
    out = StringIO()
    call_command("seed_demo", *args, stdout=out)
    return out.getvalue()


def counts() -> dict[str, int]:
    return {
        model.__name__: model.objects.count()
        for model in (User, Group, Program, Week, Session, Exercise, CardioBlock)
    }


def demo_program() -> Program:
    return Program.objects.get(athlete__username="athlete", name=DEMO_PROGRAM_NAME)


def test_seed_creates_the_three_demo_users_with_their_roles_and_prints_the_logins():
    output = run_seed()
    athlete, coach, staff = (User.objects.get(username=u) for u in ("athlete", "coach", "staff"))
    assert not athlete.is_staff and not athlete.groups.exists()
    assert coach.is_staff and list(coach.groups.values_list("name", flat=True)) == [COACHES_GROUP]
    assert staff.is_staff and list(staff.groups.values_list("name", flat=True)) == [STAFF_GROUP]
    for login in DEMO_LOGINS:
        assert User.objects.get(username=login.username).check_password(login.password)
        assert f"{login.username} / {login.password}" in output
    assert "athlete / spotter-athlete" in output and "(the athlete: chat at /)" in output
    assert "(the coach: /admin/)" in output


def test_seed_builds_an_eight_week_program_coached_by_coach_with_today_in_week_two():
    run_seed()
    program = demo_program()
    assert program.coach.username == "coach"
    revision = program.revisions.get()  # the build is the program's first revision
    assert (revision.number, revision.via, revision.actor) == (1, "seed", program.coach)
    assert program.version == revision.program_version == 2
    today = timezone.localdate()
    assert program.start_date.weekday() == 0
    week2 = program.weeks.get(position=2)
    assert week2.start_date <= today <= week2.end_date
    weeks = list(program.weeks.order_by("position"))
    assert [w.position for w in weeks] == list(range(1, 9))
    assert [w.phase for w in weeks] == ["Accumulation"] * 3 + ["Deload"] + [
        "Intensification"
    ] * 3 + ["Deload"]
    for week in weeks:
        sessions = list(week.sessions.order_by("position"))
        assert 5 <= len(sessions) <= 7 or (week.position == 8 and len(sessions) == 4)
        assert [s.position for s in sessions] == list(range(1, len(sessions) + 1))
        for session in sessions:
            assert week.start_date <= session.scheduled_date <= week.end_date
            assert session.day_of_week == session.scheduled_date.strftime("%A")
            assert list(session.exercises.values_list("position", flat=True)) == list(
                range(1, session.exercises.count() + 1)
            )


def test_every_demo_week_has_a_cardio_only_day_and_a_rest_day():
    run_seed()
    for week in demo_program().weeks.all():
        cardio_only = week.sessions.filter(exercises__isnull=True, cardio__isnull=False)
        rest = week.sessions.filter(exercises__isnull=True, cardio__isnull=True)
        assert cardio_only.filter(cardio__type=CardioType.ZONE2).exists(), week
        assert rest.exists(), week


def test_demo_exercises_are_realistic_and_progress_through_the_block():
    run_seed()
    program = demo_program()
    squat = Exercise.objects.get(
        session__week__program=program, session__week__position=1, name="Back Squat"
    )
    assert (squat.working_sets, squat.reps, squat.target_load) == (3, "5", "225 lbs")
    assert squat.warmup_sets > 0 and squat.rest_seconds >= 120
    rdl = Exercise.objects.get(
        session__week__program=program, session__week__position=1, name="Romanian Deadlift"
    )
    assert (rdl.working_sets, rdl.reps) == (3, "8")
    names = set(
        Exercise.objects.filter(session__week__program=program).values_list("name", flat=True)
    )
    assert {"Bench Press", "Pull-ups", "Overhead Press", "Barbell Row", "Deadlift"} <= names
    loads = [
        int(load.split()[0])
        for load in Exercise.objects.filter(session__week__program=program, name="Back Squat")
        .order_by("session__week__position")
        .values_list("target_load", flat=True)
    ]
    assert loads[1] > loads[0] and loads[4] > loads[2] and loads[3] < loads[0]  # deload in week 4
    superset = Exercise.objects.filter(session__week__program=program, group_label="A")
    assert superset.count() >= 2
    session = Session.objects.get(week__program=program, week__position=1, position=1)
    assert session.warmup and all(isinstance(item, str) for item in session.warmup)


def test_running_the_seed_twice_creates_nothing_new():
    run_seed()
    first = counts()
    output = run_seed()
    assert counts() == first
    assert demo_program().revisions.count() == 1
    assert Program.objects.filter(name=DEMO_PROGRAM_NAME).count() == 1
    assert "Kept the existing" in output


def test_running_the_seed_again_keeps_what_the_athlete_changed():
    run_seed()
    program = demo_program()
    squat = Exercise.objects.get(
        session__week__program=program, session__week__position=1, name="Back Squat"
    )
    squat.target_load = "235 lbs"
    squat.save(update_fields=["target_load"])
    User.objects.filter(username="athlete").update(first_name="Jordan")
    run_seed()
    squat.refresh_from_db()
    assert squat.target_load == "235 lbs"
    assert demo_program().pk == program.pk
    assert User.objects.get(username="athlete").first_name == "Jordan"


def test_running_the_seed_again_restores_the_demo_passwords():
    run_seed()
    coach = User.objects.get(username="coach")
    coach.set_password("something-else")
    coach.save()
    run_seed()
    assert User.objects.get(username="coach").check_password("spotter-coach")


def test_reset_program_rebuilds_it_from_last_monday():
    result = seed_demo(today=datetime.date(2026, 1, 7))  # a Wednesday
    assert result.program.start_date == datetime.date(2025, 12, 29)
    old_pk = result.program.pk
    output = run_seed("--reset-program")
    assert "Created" in output
    program = demo_program()
    assert program.pk != old_pk
    assert Program.objects.filter(name=DEMO_PROGRAM_NAME).count() == 1
    assert program.weeks.count() == 8


def test_demo_coach_sees_the_demo_program_in_the_admin_and_staff_can_only_view_it(client):
    run_seed()
    program = demo_program()
    # Through axes' backend, which needs the request (a throttled sign-in is per address).
    client.login(request=HttpRequest(), username="coach", password="spotter-coach")
    response = client.get(reverse("admin:programs_program_changelist"))
    # the demo athlete's program and the one of the athlete the roster flags (roster.demo)
    assert {p.athlete.username for p in response.context["cl"].result_list} == {"athlete", "jamie"}
    assert program in response.context["cl"].result_list
    client.logout()
    client.login(request=HttpRequest(), username="staff", password="spotter-staff")
    url = reverse("admin:programs_program_change", args=[program.pk])
    assert client.get(url).status_code == 200
    assert client.post(url, {"name": "x"}).status_code == 403
    client.logout()
    client.login(request=HttpRequest(), username="athlete", password="spotter-athlete")
    assert client.get(url).status_code == 302  # to the admin login: not staff


def test_seed_also_fills_the_workout_library_once():
    first = run_seed()
    assert "Workout library: 42 demo workouts (42 new)." in first
    again = run_seed()
    assert "(0 new)" in again
    assert LibraryWorkout.objects.filter(owner__username="coach").count() >= 30


# --- issue 18 item 23: the demo lets the athlete push and realign, whatever the day ------------

A_MONDAY = datetime.date(2026, 11, 23)


def on_day(monkeypatch, day: datetime.date) -> None:
    """Make ``day`` (noon UTC) the date everywhere: the seed's, the athlete's and the engine's."""
    noon = datetime.datetime.combine(day, datetime.time(12), tzinfo=datetime.UTC)
    monkeypatch.setattr(timezone, "now", lambda: noon)


@pytest.mark.parametrize("weekday", range(7))
def test_on_any_day_the_demo_offers_realign_and_it_applies(monkeypatch, weekday):
    today = A_MONDAY + datetime.timedelta(days=weekday)
    on_day(monkeypatch, today)
    run_seed()
    program = demo_program()
    offer = plan_actions.plan_offer(ConversationFactory(program=program))
    assert offer["realign"] and offer["missed"] == 3, offer
    realigned = apply(program, call("realign_plan"))
    assert realigned.success, realigned.to_dict()
    assert plan_adjust.missed_sessions(program_id=program.pk, today=today) == []
    assert Session.objects.filter(week__program=program, scheduled_date=today).exists()


@pytest.mark.parametrize("weekday", range(7))
def test_on_any_day_the_demo_athlete_can_push_the_next_session(monkeypatch, weekday):
    today = A_MONDAY + datetime.timedelta(days=weekday)
    on_day(monkeypatch, today)
    run_seed()
    program = demo_program()
    later = (
        Session.objects.filter(week__program=program, scheduled_date__gte=today, completed=False)
        .select_related("week")
        .order_by("scheduled_date")
        .first()
    )
    pushed = apply(
        program,
        call(
            "reschedule_workout",
            workout_id=later.ref,
            new_date=(later.scheduled_date + datetime.timedelta(days=1)).isoformat(),
            strategy="push",
        ),
    )
    assert pushed.success, pushed.to_dict()
