"""A recipe from a photo, end to end: the photo is sent from the recipes page (or the chat), read
by the real engine in the (eager) worker task, shown with every line, put on the photo's card as
``recipe_create`` for the athlete to check, and saved only by Apply. Someone else's photo is a 404
everywhere. (The one test here that runs the engine: it is slow on a shared machine.)"""

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from media.models import PhotoRead
from nutrition.models import Recipe
from tests.factories import UserFactory, build_program
from tests.media.conftest import fixture_photo, picture

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def athlete_client(client):
    program = build_program(weeks=1, sessions=1, exercises=1)
    client.force_login(program.athlete)
    client.athlete = program.athlete
    return client


def send(client, data: bytes, name="recipe.jpg"):
    upload = SimpleUploadedFile(name, data, content_type="image/jpeg")
    return client.post(reverse("media:photo_send"), {"photo": upload}, **HTMX)


def test_a_photo_becomes_a_recipe_on_the_card_and_is_saved_only_by_apply(
    athlete_client, django_capture_on_commit_callbacks
):
    page = athlete_client.get(reverse("nutrition:recipes")).content.decode()
    assert 'accept="image/*" capture="environment"' in page
    with django_capture_on_commit_callbacks(execute=True):
        response = send(athlete_client, fixture_photo("pasta"))
    assert response.status_code == 200
    read = PhotoRead.objects.get()
    assert (read.status, read.photo) == ("done", None)
    shown = athlete_client.get(reverse("media:photo", args=[read.pk]), **HTMX).content.decode()
    assert "Tomato Basil Pasta" in shown and "200 g spaghetti" in shown
    assert "3 piece garlic, sliced" in shown and "hx-trigger" not in shown  # finished: no poll
    assert reverse("media:photo_apply", args=[read.pk]) in shown and "Apply Changes" in shown
    lines = re.findall(r'name="line" value="([^"]+)"', shown)
    assert lines == ["200 g spaghetti", "2 tbsp olive oil", "3 piece garlic, sliced",
                     "400 g crushed tomatoes", "1 tsp salt", "10 g basil"]  # fmt: skip
    assert not Recipe.objects.exists()  # nothing before Apply
    title = re.search(r'name="title" value="([^"]+)"', shown).group(1)
    notes = re.search(r'name="notes"[^>]*>([^<]*)<', shown).group(1)
    post = {"title": title, "line": lines, "notes": notes}
    response = athlete_client.post(reverse("media:photo_apply", args=[read.pk]), post)
    recipe = Recipe.objects.get()
    assert response.status_code == 302
    assert recipe.title == "Tomato Basil Pasta" and len(recipe.ingredients) == 6
    assert recipe.notes.startswith("Serves 2.")


def test_a_read_still_running_polls_and_a_failed_one_says_why(athlete_client, monkeypatch):
    monkeypatch.setattr("media.tasks.read_photo.delay", lambda pk: None)  # the worker is slow
    send(athlete_client, picture())
    read = PhotoRead.objects.get()
    shown = athlete_client.get(reverse("media:photo", args=[read.pk]), **HTMX).content.decode()
    assert "Reading photo" in shown and 'hx-trigger="every 1s"' in shown
    PhotoRead.objects.filter(pk=read.pk).update(status="failed", error="The photo is damaged.")
    shown = athlete_client.get(reverse("media:photo", args=[read.pk]), **HTMX).content.decode()
    assert "could not be read" in shown and "The photo is damaged." in shown


def test_a_refused_photo_says_why_and_keeps_nothing(athlete_client):
    response = send(athlete_client, b"GIF89a-not-really")
    assert response.status_code == 422 and "a picture the reader takes" in response.content.decode()
    response = athlete_client.post(reverse("media:photo_send"), {}, **HTMX)
    assert response.status_code == 422 and "Choose a photo" in response.content.decode()
    assert not PhotoRead.objects.exists()


def test_too_many_photos_a_minute_are_refused_with_429(athlete_client, settings, monkeypatch):
    settings.MEDIA_PHOTOS_PER_MINUTE, settings.MEDIA_PHOTOS_AT_ONCE = 1, 5
    monkeypatch.setattr("media.tasks.read_photo.delay", lambda pk: None)
    assert send(athlete_client, picture()).status_code == 200
    response = send(athlete_client, picture())
    assert response.status_code == 429 and "in the last minute" in response.content.decode()


def test_someone_else_s_photo_is_a_404_on_its_page_and_for_its_card(athlete_client):
    other = PhotoRead.objects.create(
        owner=UserFactory(), status="done", content_type="image/png", byte_size=1, width=1,
        height=1, reading={"title": "Secret", "ingredients": [
            {"text": "1 tsp salt", "ingredient": "salt", "quantity": "1", "unit": "tsp"}]},
    )  # fmt: skip
    assert athlete_client.get(reverse("media:photo", args=[other.pk])).status_code == 404
    apply = reverse("media:photo_apply", args=[other.pk])
    assert athlete_client.post(apply, {"title": "x", "line": ["1 tsp salt"]}).status_code == 404
    assert not Recipe.objects.exists()


def test_the_pages_need_a_sign_in(client):
    assert client.get(reverse("media:photo", args=[1])).status_code == 302
    assert client.post(reverse("media:photo_send")).status_code == 302


def test_the_chat_box_has_the_photo_button_and_a_hidden_microphone(athlete_client):
    page = athlete_client.get(reverse("chat:home")).content.decode()
    assert 'data-voice-for="composer-text"' in page and "media/voice.js" in page
    assert reverse("media:photo_send") in page
