"""The workspace's pages as a coach, another coach, staff and an athlete: a coach sees and acts
on their own athletes only (someone else's is a 404 on every URL), staff read everything and act
on nothing, an athlete never gets past the admin login."""

import pytest
from django.conf import settings
from django.urls import reverse

from inbox.counts import unread_by_athlete
from roster import rows, services
from roster.models import Flag, FlagAction, FlagKind, FlagStatus
from tests.roster.builders import athlete_message
from wellness.models import MoodLog

pytestmark = pytest.mark.django_db

ROSTER = reverse("roster:roster")


def as_user(client, user):
    client.force_login(user)
    return client


def athletes_listed(response) -> list[str]:
    return [row.athlete.username for row in response.context["rows"]]


def test_the_coach_sees_their_athletes_neediest_first_and_no_one_else(client, coach, team):
    response = as_user(client, coach).get(ROSTER)
    assert response.status_code == 200
    assert athletes_listed(response) == ["ann", "ben"]
    assert b"Missed" in response.content or b"Sessions missed" in response.content


def test_each_row_carries_its_columns(client, coach, team):
    row = next(
        r for r in as_user(client, coach).get(ROSTER).context["rows"] if r.athlete.username == "ben"
    )
    assert row.facts["program"].startswith("Program")
    assert row.facts["week"].startswith("Week 5")
    assert row.last4 == (12, 12) and row.last4_colour == "green"
    assert row.facts["last_workout"] is not None and row.days_since >= 1
    assert len(row.facts["form"]) == 14 and "<svg" in row.spark
    assert row.readiness_now == 4.0


def test_a_missed_week_so_far_is_red(client, coach, team, today):
    row = next(
        r for r in as_user(client, coach).get(ROSTER).context["rows"] if r.athlete.username == "ann"
    )
    done, due = row.this_week
    assert done == 0  # nothing this week is done: whatever is due is missed
    if today.weekday() >= 3:  # Monday to Wednesday are all due from Thursday on
        assert (due, row.week_colour) == (3, "red")
    else:
        assert row.week_colour == ("red" if due else None)


def test_search_and_filters(client, coach, team):
    client = as_user(client, coach)
    assert athletes_listed(client.get(ROSTER, {"q": "BE"})) == ["ben"]
    assert athletes_listed(client.get(ROSTER, {"flagged": "1"})) == ["ann"]
    assert athletes_listed(client.get(ROSTER, {"kind": FlagKind.MISSED})) == ["ann"]
    assert athletes_listed(client.get(ROSTER, {"kind": "nonsense"})) == ["ann", "ben"]


def test_a_crisis_goes_to_the_top(client, coach, team, today):

    MoodLog.objects.create(athlete=team[1], mood="crisis", logged_on=today)
    services.compute_flags(today=today)
    assert athletes_listed(as_user(client, coach).get(ROSTER))[0] == "ben"


def test_staff_read_every_athlete_and_act_on_none(client, staff, team, their_flag):
    client = as_user(client, staff)
    response = client.get(ROSTER)
    assert set(athletes_listed(response)) == {"ann", "ben", "zoe"}
    assert response.context["may_act"] is False
    assert client.get(reverse("roster:flag", args=[their_flag.pk])).context["may_act"] is False
    assert client.post(reverse("roster:resolve", args=[their_flag.pk])).status_code == 404
    assert (
        client.post(reverse("roster:snooze", args=[their_flag.pk]), {"days": 3}).status_code == 404
    )
    assert client.post(reverse("roster:check")).status_code == 404
    their_flag.refresh_from_db()
    assert their_flag.status == FlagStatus.OPEN


@pytest.mark.parametrize("name", ["athlete", "flag", "resolve", "snooze"])
def test_another_coachs_athlete_and_flags_are_not_found(client, coach, team, their_flag, name):
    client = as_user(client, coach)
    arg = team[2].pk if name == "athlete" else their_flag.pk
    url = reverse(f"roster:{name}", args=[arg])
    response = client.get(url) if name in ("athlete", "flag") else client.post(url, {"days": 3})
    assert response.status_code == 404
    their_flag.refresh_from_db()
    assert their_flag.status == FlagStatus.OPEN and not FlagAction.objects.exists()


def test_check_now_computes_only_the_coachs_athletes(client, coach, team, their_flag):
    Flag.objects.all().delete()
    response = as_user(client, coach).post(reverse("roster:check"))
    assert response.status_code == 302
    assert set(Flag.objects.values_list("athlete__username", flat=True)) == {"ann"}


@pytest.mark.parametrize(
    "url",
    [
        lambda t, f: ROSTER,
        lambda t, f: reverse("roster:athlete", args=[t[0].pk]),
        lambda t, f: reverse("roster:flag", args=[f.pk]),
    ],
)
def test_an_athlete_never_gets_past_the_admin_login(client, team, my_flag, url):
    response = as_user(client, team[0]).get(url(team, my_flag))
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


@pytest.mark.parametrize("action", ["resolve", "snooze"])
def test_an_athlete_cannot_post_an_action(client, team, my_flag, action):
    response = as_user(client, team[0]).post(
        reverse(f"roster:{action}", args=[my_flag.pk]), {"days": 2}
    )
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    my_flag.refresh_from_db()
    assert my_flag.status == FlagStatus.OPEN


def test_the_coach_resolves_and_snoozes_from_the_flag_page(client, coach, team, my_flag):
    client = as_user(client, coach)
    page = client.get(reverse("roster:flag", args=[my_flag.pk]))
    assert page.status_code == 200 and page.context["may_act"] is True
    client.post(reverse("roster:snooze", args=[my_flag.pk]), {"days": "7"})
    my_flag.refresh_from_db()
    assert my_flag.status == FlagStatus.SNOOZED and my_flag.decided_by == coach
    client.post(reverse("roster:resolve", args=[my_flag.pk]), {"note": "called"})
    my_flag.refresh_from_db()
    assert my_flag.status == FlagStatus.RESOLVED
    assert [a.action for a in my_flag.actions.all()] == ["snoozed", "resolved"]


def test_a_bad_snooze_says_why_and_changes_nothing(client, coach, team, my_flag):
    response = as_user(client, coach).post(
        reverse("roster:snooze", args=[my_flag.pk]), {"days": "forever"}, follow=True
    )
    assert b"1 to 60 days" in response.content
    my_flag.refresh_from_db()
    assert my_flag.status == FlagStatus.OPEN


def test_the_evidence_is_the_athletes_words_escaped(client, coach, team, today):

    athlete_message(team[1], "<script>alert(1)</script> my knee is sore")
    services.compute_flags(today=today)
    flag = Flag.objects.get(athlete=team[1], kind=FlagKind.PAIN)
    response = as_user(client, coach).get(reverse("roster:flag", args=[flag.pk]))
    assert b"&lt;script&gt;alert(1)&lt;/script&gt; my knee is sore" in response.content
    assert b"<script>alert(1)" not in response.content


def test_a_crisis_flag_shows_the_care_resources_the_athlete_saw(client, coach, team, today):

    MoodLog.objects.create(athlete=team[1], mood="crisis", logged_on=today)
    services.compute_flags(today=today)
    flag = Flag.objects.get(athlete=team[1], kind=FlagKind.CRISIS)
    response = as_user(client, coach).get(reverse("roster:flag", args=[flag.pk]))
    assert response.context["care_resources"] == settings.WELLNESS_CRISIS_MESSAGE
    assert b"care-resources" in response.content


def test_the_athlete_page_has_calendar_chart_logs_conversation_and_history(client, coach, team):
    athlete_message(team[0], "hello coach")
    response = as_user(client, coach).get(reverse("roster:athlete", args=[team[0].pk]))
    assert response.status_code == 200
    titles = [s.title for s in response.context["sections"]]
    assert titles == [
        "Calendar",
        "Fitness, fatigue and form",
        "Recent workouts",
        "Wellness logs",
        "Change history",
    ]
    html = response.content.decode()
    assert 'id="coach-calendar"' in html and "colour-red" in html
    assert 'id="fitness-data"' in html
    program = team[0].programs.get()
    assert reverse("admin:programs_program_history", args=[program.pk]) in html
    conversation = response.context["conversations"][0][0]
    assert reverse("admin:chat_conversation_timeline", args=[conversation]) in html


def test_the_unread_column_is_left_out_without_the_inbox_app(client, coach, team, monkeypatch):
    monkeypatch.setattr(rows, "UNREAD_HOOK_APP", "no_such_app")
    assert rows.unread_hook() is None
    response = as_user(client, coach).get(ROSTER)
    assert response.context["unread_column"] is False and b">Unread<" not in response.content


def test_the_unread_column_reads_the_inbox_hook_when_it_is_there(client, coach, team, monkeypatch):
    seen = {}

    def unread_counts(user):
        seen["args"] = user
        return {team[1].pk: 4, 10**9: 7}  # an athlete not on this roster is left out

    monkeypatch.setattr(rows, "unread_hook", lambda: unread_counts)
    response = as_user(client, coach).get(ROSTER)
    assert response.context["unread_column"] is True
    assert seen["args"] == coach
    assert [r.unread for r in response.context["rows"] if r.athlete.pk == 10**9] == []
    ben = next(r for r in response.context["rows"] if r.athlete.username == "ben")
    assert ben.unread == 4 and ben.score == 8


def test_the_unread_hook_is_the_inbox_s_count_of_replies_when_the_inbox_is_installed():
    assert rows.unread_hook() is unread_by_athlete


def test_the_admin_index_puts_the_neediest_athletes_on_top(client, coach, team):
    response = as_user(client, coach).get(reverse("admin:index"))
    html = response.content.decode()
    assert 'id="roster-top"' in html
    assert 'data-athlete="ann"' in html and 'data-athlete="ben"' not in html
