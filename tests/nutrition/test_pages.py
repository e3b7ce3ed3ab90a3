"""The food pages: the household's people and its athlete's coach read them; anyone else gets a
404 on every URL; only the household's people tick items (htmx swaps the row)."""

import datetime

import pytest
from django.urls import reverse

from nutrition import services
from nutrition.aggregation import Line
from nutrition.models import GroceryItem
from tests.factories import CoachFactory, ProgramFactory, UserFactory
from tests.nutrition.helpers import first_member, join, kitchen

pytestmark = pytest.mark.django_db


@pytest.fixture
def home():
    athlete = UserFactory()
    household, bowl, _, groceries = kitchen(athlete)
    services.push_ingredients(
        grocery_list=groceries,
        incoming=[Line(None, "rice", services.Decimal("3.25"), "cup")],
    )
    services.meal_add(
        household=household, recipe=bowl, date=datetime.date(2026, 11, 24), meal_type="dinner"
    )
    return household, bowl, groceries, GroceryItem.objects.get()


def urls(household, recipe, grocery_list):
    q = f"?household={household.pk}"
    return [
        reverse("nutrition:recipes") + q,
        reverse("nutrition:recipe", args=[recipe.pk]),
        reverse("nutrition:meals") + q + "&week=2026-11-23",
        reverse("nutrition:lists") + q,
        reverse("nutrition:list", args=[grocery_list.pk]),
    ]


def test_a_member_sees_every_page_with_the_data(client, home):
    household, bowl, groceries, _ = home
    client.force_login(first_member(household))
    pages = [client.get(url) for url in urls(household, bowl, groceries)]
    assert [p.status_code for p in pages] == [200] * 5
    assert "Rice bowl" in pages[0].content.decode()
    assert "1 cup rice" in pages[1].content.decode()
    assert "Rice bowl" in pages[2].content.decode()
    assert "3.25" in pages[4].content.decode()


def test_a_stranger_gets_404_on_every_url_and_cannot_tick(client, home):
    household, bowl, groceries, item = home
    client.force_login(UserFactory())
    for url in urls(household, bowl, groceries):
        assert client.get(url).status_code == 404, url
    toggle = reverse("nutrition:item_toggle", args=[item.pk])
    assert client.post(toggle, {"checked": "1"}).status_code == 404
    item.refresh_from_db()
    assert not item.checked


def test_the_athletes_coach_reads_but_does_not_tick(client, home):
    household, bowl, groceries, item = home
    coach = CoachFactory()
    ProgramFactory(athlete=first_member(household), coach=coach)
    client.force_login(coach)
    for url in urls(household, bowl, groceries):
        assert client.get(url).status_code == 200, url
    page = client.get(reverse("nutrition:list", args=[groceries.pk])).content.decode()
    assert "item_toggle" not in page and "toggle/" not in page
    assert (
        client.post(reverse("nutrition:item_toggle", args=[item.pk]), {"checked": "1"}).status_code
        == 404
    )


def test_a_member_ticks_an_item_with_htmx_and_the_row_is_swapped(client, home):
    household, _, _, item = home
    member = UserFactory()
    join(member, household)
    client.force_login(member)
    response = client.post(
        reverse("nutrition:item_toggle", args=[item.pk]), {"checked": "1"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert f'id="item-{item.pk}"' in body and "checked" in body and "<html" not in body
    item.refresh_from_db()
    assert item.checked


def test_user_text_is_escaped(client):
    athlete = UserFactory()
    household, _, _, _ = kitchen(athlete)
    services.recipe_create(
        household=household,
        title="<script>x</script>",
        ingredients=[{"ingredient": "rice", "quantity": 1, "unit": "cup"}],
    )
    client.force_login(athlete)
    body = client.get(reverse("nutrition:recipes")).content.decode()
    assert "<script>x</script>" not in body and "&lt;script&gt;" in body


def test_anonymous_is_sent_to_log_in(client, home):
    response = client.get(reverse("nutrition:recipes"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_food_section_opens_on_the_meal_plan_keeping_the_household(client, home):
    household, *_ = home
    client.force_login(first_member(household))
    response = client.get(f"/food/?household={household.pk}")
    assert response.status_code == 302
    assert response["Location"] == reverse("nutrition:meals") + f"?household={household.pk}"
    assert client.get(response["Location"]).status_code == 200
