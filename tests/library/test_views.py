import pytest
from django.urls import reverse
from icalendar import Calendar

from library.feed import feed_for
from library.models import CalendarFeed
from tests.factories import LibraryWorkoutFactory, build_program

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def athlete_client(client, team):
    client.force_login(team["athlete"])
    return client


def test_library_page_needs_a_login(client, db):
    response = client.get(reverse("library:index"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    htmx = client.get(reverse("library:index"), **HTMX)
    assert htmx.status_code == 200 and "/accounts/login/" in htmx["HX-Redirect"]


def test_library_page_lists_what_the_athlete_may_see(
    athlete_client, team, shared_workout, private_workout
):
    LibraryWorkoutFactory(owner=team["outsider"], title="Someone Else's Tempo")
    html = athlete_client.get(reverse("library:index")).content.decode()
    assert "Coach&#x27;s Squat Day" in html and "My Hill Sprints" in html
    assert "Someone Else" not in html
    assert reverse("library:detail", args=[private_workout.pk]) in html
    assert 'hx-get="/library/"' in html and 'id="results"' in html


def test_search_renders_only_the_results_partial_for_htmx(
    athlete_client, shared_workout, private_workout
):
    response = athlete_client.get(reverse("library:index"), {"q": "hill"}, **HTMX)
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="results"')
    assert "My Hill Sprints" in html and "Squat Day" not in html
    assert "1 best match for" in html


def test_search_without_htmx_renders_the_whole_page_with_the_query_kept(
    athlete_client, private_workout
):
    html = athlete_client.get(reverse("library:index"), {"q": "hill"}).content.decode()
    assert "<html" in html and 'value="hill"' in html and "My Hill Sprints" in html


def test_a_bad_query_shows_the_error_inline(athlete_client, private_workout):
    html = athlete_client.get(reverse("library:index"), {"q": "?!"}, **HTMX).content.decode()
    assert "query needs at least one word" in html


def test_user_written_text_is_escaped(athlete_client, team):
    workout = LibraryWorkoutFactory(
        owner=team["athlete"],
        title="<script>alert(1)</script>",
        description="<img src=x onerror=alert(2)>",
        tags=["<b>bold</b>"],
    )
    for url in (reverse("library:index"), reverse("library:detail", args=[workout.pk])):
        html = athlete_client.get(url).content.decode()
        assert "<script>alert(1)" not in html and "&lt;script&gt;" in html
        assert "<b>bold</b>" not in html
    detail = athlete_client.get(reverse("library:detail", args=[workout.pk])).content.decode()
    assert "<img src=x" not in detail


def test_detail_page_shows_the_template(athlete_client, team):
    workout = LibraryWorkoutFactory(
        owner=team["athlete"],
        title="Row Intervals",
        template={
            "exercises": [{"name": "Plank", "sets": 3, "reps": "45 s", "load": "bodyweight"}],
            "cardio": {"type": "intervals", "duration": 30, "modality": "Rowing"},
            "warmup": ["Easy row 5 min"],
        },
    )
    html = athlete_client.get(reverse("library:detail", args=[workout.pk])).content.decode()
    assert "Plank" in html and "3 × 45 s @ bodyweight" in html
    assert "Intervals · Rowing · 30 min" in html and "Easy row 5 min" in html
    assert f"schedule workout {workout.pk}" in html


def test_detail_of_someone_elses_or_a_deleted_workout_is_404(athlete_client, team):
    foreign = LibraryWorkoutFactory(owner=team["outsider"])
    other_coach = LibraryWorkoutFactory(owner=team["other_coach"], scope="shared")
    deleted = LibraryWorkoutFactory(owner=team["athlete"])
    deleted.deleted_at = deleted.created_at
    deleted.save()
    for workout in (foreign, other_coach, deleted):
        assert athlete_client.get(reverse("library:detail", args=[workout.pk])).status_code == 404
    assert athlete_client.get(reverse("library:detail", args=[999999])).status_code == 404


def test_coach_sees_their_athletes_workout_page(client, team, private_workout):
    client.force_login(team["coach"])
    response = client.get(reverse("library:detail", args=[private_workout.pk]))
    assert response.status_code == 200
    assert f"{team['athlete'].get_username()}&#x27;s" in response.content.decode()


# --- the calendar feed ----------------------------------------------------------------------


def test_feed_settings_page_shows_the_secret_address(athlete_client, team):
    html = athlete_client.get(reverse("library:feed_settings")).content.decode()
    feed = CalendarFeed.objects.get(athlete=team["athlete"])
    assert f"http://testserver/calendar/feed/{feed.token}.ics" in html
    assert f"webcal://testserver/calendar/feed/{feed.token}.ics" in html


def test_rotate_is_post_only_and_shows_the_new_address(athlete_client, team):
    old = feed_for(athlete=team["athlete"]).token
    assert athlete_client.get(reverse("library:feed_rotate")).status_code == 405
    response = athlete_client.post(reverse("library:feed_rotate"), **HTMX)
    new = CalendarFeed.objects.get(athlete=team["athlete"]).token
    html = response.content.decode()
    assert new != old and new in html and old not in html
    assert "the old one no longer works" in html
    assert athlete_client.get(reverse("library:feed", args=[old])).status_code == 404
    assert athlete_client.get(reverse("library:feed", args=[new])).status_code == 200


def test_rotate_without_htmx_redirects_to_the_settings_page(athlete_client):
    response = athlete_client.post(reverse("library:feed_rotate"))
    assert response.status_code == 302 and response["Location"] == reverse("library:feed_settings")


def test_rotate_needs_a_login(client, db):
    response = client.post(reverse("library:feed_rotate"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_feed_needs_no_login_only_the_token(client, db):
    program = build_program(weeks=1, sessions=2, exercises=1)
    feed = feed_for(athlete=program.athlete)
    response = client.get(reverse("library:feed", args=[feed.token]))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    events = Calendar.from_ical(response.content).walk("VEVENT")
    assert len(events) == 2


@pytest.mark.parametrize("token", ["wrong-token-of-a-plausible-length-xxxxxxxx", "x"])
def test_a_wrong_token_is_404(client, db, token):
    build_program(weeks=1, sessions=1, exercises=1)
    assert client.get(reverse("library:feed", args=[token])).status_code == 404
