"""The pages and the admin say what the policy says: for each relation, a read page answers 200
exactly when ``access.policy`` lets the user read the object (else a 404, or the admin's own
refusal: its login for someone who isn't staff, its "doesn't exist" redirect), and a write
succeeds exactly when the policy lets them act (staff get a 403 in the admin, a 404 on a page)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from access import policy

from .conftest import PEOPLE

pytestmark = pytest.mark.django_db

ADMIN_LOGIN = "/admin/login/"


def client_for(user) -> Client:
    client = Client()
    if user.is_authenticated:
        client.force_login(user)
    return client


def refused(response, *, admin: bool) -> bool:
    """The admin refuses a non-staff user with its login page and an object outside the user's
    rows with 404 or a redirect to the index ("doesn't exist"); a page with a 404."""
    if response.status_code == 404:
        return True
    if admin and response.status_code == 302:
        return response["Location"].startswith((ADMIN_LOGIN, "/admin/"))
    if not admin and response.status_code == 302:
        return response["Location"].startswith("/accounts/login/")
    return False


READ_PAGES = {
    "program admin": ("program", lambda o: reverse("admin:programs_program_change", args=[o.pk])),
    "exercise admin": (
        "exercise",
        lambda o: reverse("admin:programs_exercise_change", args=[o.pk]),
    ),
    "activity admin": (
        "activity",
        lambda o: reverse("admin:training_activity_change", args=[o.pk]),
    ),
    "mood admin": ("mood", lambda o: reverse("admin:wellness_moodlog_change", args=[o.pk])),
    "conversation timeline": (
        "conversation",
        lambda o: reverse("admin:chat_conversation_timeline", args=[o.pk]),
    ),
    "recipe admin": ("recipe", lambda o: reverse("admin:nutrition_recipe_change", args=[o.pk])),
}


@pytest.mark.parametrize("who", [p for p in PEOPLE if p != "anonymous"])
@pytest.mark.parametrize("page", READ_PAGES)
def test_an_admin_page_opens_exactly_for_who_may_read_it(world, page, who):
    user = world["people"][who]
    obj = world["objects"][READ_PAGES[page][0]]
    response = client_for(user).get(READ_PAGES[page][1](obj))
    if user.is_staff and policy.may_read(user, obj):
        assert response.status_code == 200
    else:
        assert refused(response, admin=True), (response.status_code, response.get("Location"))


@pytest.mark.parametrize("who", [p for p in PEOPLE if p != "anonymous"])
def test_the_household_pages_open_exactly_for_who_may_read_them(world, who):
    user = world["people"][who]
    recipe = world["objects"]["recipe"]
    url = reverse("nutrition:recipe", args=[recipe.pk]) + f"?household={recipe.household_id}"
    response = client_for(user).get(url)
    if policy.may_read(user, recipe):
        assert response.status_code == 200
    else:
        assert response.status_code == 404


@pytest.mark.parametrize("who", [p for p in PEOPLE if p != "anonymous"])
def test_a_library_workout_opens_exactly_for_who_may_read_it(world, who):
    user = world["people"][who]
    workout = world["objects"]["workout"]
    response = client_for(user).get(reverse("library:detail", args=[workout.pk]))
    assert response.status_code == (200 if policy.may_read(user, workout) else 404)


@pytest.mark.parametrize("who", [p for p in PEOPLE if p != "anonymous"])
def test_ticking_a_grocery_item_works_exactly_for_who_may_act(world, who):
    user = world["people"][who]
    item = world["objects"]["item"]
    response = client_for(user).post(
        reverse("nutrition:item_toggle", args=[item.pk]), {"checked": "1"}
    )
    item.refresh_from_db()
    if policy.may_act(user, item):
        assert response.status_code == 302 and item.checked
    else:
        assert response.status_code == 404 and not item.checked


@pytest.mark.parametrize("who", [p for p in PEOPLE if p != "anonymous"])
def test_posting_to_the_athlete_from_the_admin_works_only_for_their_coach(world, who):
    """The coach's post needs the policy's COACH tie to the program (``chat.access``): staff and
    a superuser read the timeline (200) and get a 403 when they post; another coach a 404."""
    user = world["people"][who]
    conversation = world["objects"]["conversation"]
    client = client_for(user)
    before = conversation.messages.count()
    response = client.post(
        reverse("admin:chat_conversation_post", args=[conversation.pk]), {"text": "Well done."}
    )
    posted = conversation.messages.count() > before
    if policy.Tie.COACH in policy.ties(user, conversation):
        assert response.status_code == 302 and posted
    elif user.is_staff and policy.may_read(user, conversation):
        assert response.status_code == 403 and not posted
    else:
        assert refused(response, admin=True) and not posted


@pytest.mark.parametrize("who", [p for p in PEOPLE if p != "anonymous"])
def test_the_athletes_chat_opens_only_for_the_athlete(world, who):
    """The chat's pages are the athlete's own (the policy's OWN); coach and staff read the
    conversation in the admin's timeline instead."""
    user = world["people"][who]
    conversation = world["objects"]["conversation"]
    response = client_for(user).get(reverse("chat:conversation", args=[conversation.pk]))
    assert response.status_code == (200 if policy.owns(user, conversation) else 404)
