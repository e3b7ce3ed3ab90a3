"""The recipe card of a read (``media.card``, ``/photos/<id>/apply/``) and the photo kept with a
recipe (``/photos/recipes/<id>.jpg``): no training program needed, every line corrected before
Apply, the photo kept only when asked and only after Apply, stored without EXIF (GPS), fetched
by its owner alone, gone with the recipe."""

import io

import pytest
from django.urls import reverse
from django.utils import timezone
from PIL import Image

from media import services
from media.models import PhotoRead, RecipePhoto
from media.ocr import Line
from nutrition.models import Recipe
from nutrition.services import soft_delete
from tests.factories import UserFactory, build_program

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
CARD = [Line("Oat Bowl", 34, 0.9), Line("Serves 2", 20, 0.9), Line("Ingredients", 20, 0.9),
        Line("½ cup rolled oats", 20, 0.9), Line("1 tsp honey", 20, 0.9),
        Line("a handful of love", 20, 0.9), Line("Method", 20, 0.9), Line("1. Mix.", 20, 0.9)]  # fmt: skip
GPS = 0x8825


@pytest.fixture(autouse=True)
def engine(monkeypatch):
    """The OCR engine replaced by the card above (the engine itself: test_photo_flow)."""
    monkeypatch.setattr(services.ocr, "read_lines", lambda image: CARD)


def gps_photo() -> bytes:
    exif = Image.Exif()
    exif[0x010F] = "PhoneMaker"  # Make
    exif[GPS] = {1: "N", 2: (51.0, 30.0, 0.0), 3: "W", 4: (0.0, 7.0, 0.0)}
    out = io.BytesIO()
    Image.new("RGB", (120, 90), "white").save(out, "JPEG", exif=exif)
    assert Image.open(io.BytesIO(out.getvalue())).getexif().get_ifd(GPS)  # the sent photo has it
    return out.getvalue()


def signed_in(client, user):
    client.force_login(user)
    return client


def read_of(user, *, keep: bool) -> PhotoRead:
    read = services.photo_submit(owner=user, data=gps_photo(), keep=keep)
    services.photo_read(read.pk)
    read.refresh_from_db()
    return read


def card_post(**extra):
    return {"title": "Oat Bowl", "line": ["0.5 cup rolled oats", "1 tsp honey", ""]} | extra


def test_an_athlete_without_a_program_checks_the_card_and_applies_it(client):
    athlete = UserFactory()  # no training program: the chat's offer was a 404 for them
    signed_in(client, athlete)
    read = read_of(athlete, keep=False)
    shown = client.get(reverse("media:photo", args=[read.pk]), **HTMX).content.decode()
    assert reverse("media:photo_apply", args=[read.pk]) in shown
    assert 'value="0.5 cup rolled oats"' in shown and 'value="Oat Bowl"' in shown
    assert "+ Oat Bowl: 0.5 cup rolled oats; 1 tsp honey" in shown  # the engine's dry run
    assert not Recipe.objects.exists()  # the dry run wrote nothing
    response = client.post(reverse("media:photo_apply", args=[read.pk]), card_post())
    recipe = Recipe.objects.get()
    assert response.status_code == 302 and response.url == reverse(
        "nutrition:recipe", args=[recipe.pk]
    )
    assert [(i["quantity"], i["unit"], i["name"]) for i in recipe.ingredients] == [
        ("0.500", "cup", "rolled oats"), ("1.000", "tsp", "honey")]  # fmt: skip
    read.refresh_from_db()
    assert read.recipe == recipe and read.photo is None
    assert not RecipePhoto.objects.exists()  # not kept: nothing of the picture stays


def test_an_athlete_with_a_program_uses_the_same_card(client):
    athlete = build_program(weeks=1, sessions=1, exercises=1).athlete
    read = read_of(signed_in(client, athlete) and athlete, keep=False)
    client.post(reverse("media:photo_apply", args=[read.pk]), card_post(title="Corrected Bowl"))
    assert Recipe.objects.get().title == "Corrected Bowl"


def test_a_line_that_cannot_be_read_is_named_and_nothing_is_saved(client):
    athlete = UserFactory()
    read = read_of(signed_in(client, athlete) and athlete, keep=True)
    post = card_post(line=["0.5 cup rolled oats", "a handful of love"], keep="on")
    response = client.post(reverse("media:photo_apply", args=[read.pk]), post, **HTMX)
    assert response.status_code == 422
    assert "Line 2 (“a handful of love”) isn" in response.content.decode()
    assert not Recipe.objects.exists() and not RecipePhoto.objects.exists()
    read.refresh_from_db()
    assert read.photo is not None  # still held for the corrected Apply


def test_a_kept_photo_is_stored_only_after_apply_without_gps_and_goes_with_the_recipe(client):
    athlete = UserFactory()
    read = read_of(signed_in(client, athlete) and athlete, keep=True)
    assert read.photo is not None and not RecipePhoto.objects.exists()  # held, not stored
    client.post(reverse("media:photo_apply", args=[read.pk]), card_post(keep="on"))
    recipe = Recipe.objects.get()
    kept = RecipePhoto.objects.get()
    assert kept.recipe == recipe and kept.owner == athlete
    read.refresh_from_db()
    assert read.photo is None  # the sent file is gone; only the re-encoded copy stays
    response = client.get(reverse("media:recipe_photo", args=[recipe.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "image/jpeg"
    image = Image.open(io.BytesIO(response.content))
    assert image.size == (120, 90)
    assert not image.getexif().get_ifd(GPS) and len(image.getexif()) == 0
    assert b"PhoneMaker" not in response.content
    page = client.get(reverse("nutrition:recipe", args=[recipe.pk])).content.decode()
    assert reverse("media:recipe_photo", args=[recipe.pk]) in page
    soft_delete(recipe)  # how the nutrition family deletes a recipe
    assert not RecipePhoto.objects.exists()
    assert client.get(reverse("media:recipe_photo", args=[recipe.pk])).status_code == 404


def test_a_recipe_deleted_outright_takes_its_photo_with_it(client):
    athlete = UserFactory()
    read = read_of(signed_in(client, athlete) and athlete, keep=True)
    client.post(reverse("media:photo_apply", args=[read.pk]), card_post(keep="on"))
    Recipe.all_objects.get().delete()
    assert not RecipePhoto.objects.exists()


def test_unticking_keep_on_the_card_drops_the_photo(client):
    athlete = UserFactory()
    read = read_of(signed_in(client, athlete) and athlete, keep=True)
    client.post(reverse("media:photo_apply", args=[read.pk]), card_post())  # keep unticked
    assert Recipe.objects.exists() and not RecipePhoto.objects.exists()
    read.refresh_from_db()
    assert read.photo is None


def test_keeping_a_photo_no_longer_held_saves_the_recipe_and_says_the_photo_is_not_kept(client):
    athlete = UserFactory()
    read = read_of(signed_in(client, athlete) and athlete, keep=True)
    PhotoRead.objects.filter(pk=read.pk).update(photo=None)  # past MEDIA_KEEP_HOURS
    response = client.post(
        reverse("media:photo_apply", args=[read.pk]), card_post(keep="on"), follow=True
    )
    assert Recipe.objects.exists() and not RecipePhoto.objects.exists()
    assert "the photo was no longer held" in response.content.decode()


def test_past_the_kept_photos_bound_the_recipe_is_saved_without_its_photo(client, settings):
    settings.MEDIA_KEPT_PHOTOS_MAX = 1
    athlete = UserFactory()
    signed_in(client, athlete)
    first, second = read_of(athlete, keep=True), read_of(athlete, keep=True)
    client.post(reverse("media:photo_apply", args=[first.pk]), card_post(keep="on"))
    response = client.post(
        reverse("media:photo_apply", args=[second.pk]), card_post(keep="on"), follow=True
    )
    assert Recipe.objects.count() == 2 and RecipePhoto.objects.count() == 1
    assert "at most 1" in response.content.decode()
    second.refresh_from_db()
    assert second.photo is None


def test_a_photo_held_for_a_recipe_never_applied_is_dropped_after_the_keep_hours(settings):
    athlete = UserFactory()
    read = read_of(athlete, keep=True)
    PhotoRead.objects.filter(pk=read.pk).update(
        finished_at=timezone.now() - timezone.timedelta(hours=settings.MEDIA_KEEP_HOURS + 1)
    )
    services.settle_stale(athlete)
    read.refresh_from_db()
    assert read.photo is None and read.status == "done"


def test_undo_takes_the_recipe_and_its_kept_photo_back_and_the_card_returns(client):
    athlete = UserFactory()
    read = read_of(signed_in(client, athlete) and athlete, keep=True)
    client.post(reverse("media:photo_apply", args=[read.pk]), card_post(keep="on"))
    recipe = Recipe.objects.get()
    shown = client.get(reverse("media:photo", args=[read.pk])).content.decode()
    assert reverse("media:photo_undo", args=[read.pk]) in shown
    response = client.post(reverse("media:photo_undo", args=[read.pk]), **HTMX)
    assert response.status_code == 200
    assert not Recipe.objects.filter(pk=recipe.pk).exists()  # deleted as nutrition deletes
    assert not RecipePhoto.objects.exists()
    assert reverse("media:photo_apply", args=[read.pk]) in response.content.decode()
    again = client.post(reverse("media:photo_undo", args=[read.pk]), **HTMX)
    assert again.status_code == 422 and "nothing of this photo" in again.content.decode()


def test_a_read_is_applied_once(client):
    athlete = UserFactory()
    read = read_of(signed_in(client, athlete) and athlete, keep=False)
    client.post(reverse("media:photo_apply", args=[read.pk]), card_post())
    again = client.post(reverse("media:photo_apply", args=[read.pk]), card_post())
    assert again.status_code == 422 and "saved as a recipe already" in again.content.decode()
    assert Recipe.objects.count() == 1


def test_someone_else_s_read_and_kept_photo_are_404_with_crafted_ids(client):
    owner = UserFactory()
    read = read_of(signed_in(client, owner) and owner, keep=True)
    client.post(reverse("media:photo_apply", args=[read.pk]), card_post(keep="on"))
    recipe = Recipe.objects.get()
    other_read = read_of(owner, keep=True)
    client.logout()
    intruder = UserFactory()
    signed_in(client, intruder)
    assert client.get(reverse("media:recipe_photo", args=[recipe.pk])).status_code == 404
    apply = reverse("media:photo_apply", args=[other_read.pk])
    assert client.post(apply, card_post()).status_code == 404
    undo = reverse("media:photo_undo", args=[read.pk])
    assert client.post(undo).status_code == 404
    assert Recipe.objects.filter(pk=recipe.pk).exists() and RecipePhoto.objects.exists()
    for crafted in (other_read.pk + 1000, 2**31):
        assert (
            client.post(reverse("media:photo_apply", args=[crafted]), card_post()).status_code
            == 404
        )
        assert client.get(reverse("media:recipe_photo", args=[crafted])).status_code == 404
        assert client.post(reverse("media:photo_undo", args=[crafted])).status_code == 404
    assert Recipe.objects.count() == 1
    staff = UserFactory(is_staff=True, is_superuser=True)
    signed_in(client, staff)
    assert client.get(reverse("media:recipe_photo", args=[recipe.pk])).status_code == 404
    client.logout()
    assert client.get(reverse("media:recipe_photo", args=[recipe.pk])).status_code == 302
    assert client.post(apply, card_post()).status_code == 302
    assert client.post(undo).status_code == 302
