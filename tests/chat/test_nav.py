"""The site's menu is built from the families' declarations (``NAV`` beside their ``TOOLS``):
the chat first, then each family's pages in ``INSTALLED_APPS`` order, on every page."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from chat import context_processors
from tests.factories import UserFactory, build_program

pytestmark = pytest.mark.django_db

MENU = ["Chat", "Log", "Calendar", "Fitness", "Activities", "Library", "Food", "Wellness"]


def menu_of(html: str) -> list[tuple[str, str]]:
    nav = re.search(r'<nav class="topnav"[^>]*>(.*?)</nav>', html, re.S).group(1)
    return [(label, url) for url, label in re.findall(r'<a href="([^"]+)"[^>]*>([^<]+)</a>', nav)]


@pytest.mark.parametrize("page", ["chat:home", "training:calendar", "nutrition:meals"])
def test_every_page_shows_the_chat_then_each_familys_pages(client, page):
    client.force_login(UserFactory())

    menu = menu_of(client.get(reverse(page), follow=True).content.decode())

    assert [label for label, _ in menu] == MENU
    assert dict(menu)["Food"] == reverse("nutrition:meals")
    assert dict(menu)["Log"] == reverse("training:log_today")


def test_a_familys_declared_page_joins_the_menu(monkeypatch):
    declared = {"NAV": [("Log", "training:log_today"), ("Library", "library:index")]}
    monkeypatch.setattr(context_processors, "declared", declared.__getitem__)
    context_processors.nav_links.cache_clear()
    try:
        links = context_processors.nav(None)["nav_links"]
    finally:
        context_processors.nav_links.cache_clear()

    assert links == (
        {"label": "Log", "url": reverse("training:log_today")},
        {"label": "Library", "url": reverse("library:index")},
    )


def test_the_weeks_panel_links_the_pages_a_family_declares_for_it(client):
    athlete = UserFactory()
    build_program(athlete=athlete, weeks=1)
    client.force_login(athlete)

    html = client.get(reverse("chat:home"), follow=True).content.decode()

    panel = re.search(r'<p class="training-links">(.*?)</p>', html, re.S).group(1)
    assert re.findall(r'<a href="([^"]+)">([^<]+)</a>', panel) == [
        (reverse("training:fitness"), "Fitness &amp; form"),
        (reverse("training:activities"), "Activities"),
    ]
