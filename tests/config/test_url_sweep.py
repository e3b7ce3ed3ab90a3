"""No GET answers a 500, whatever its URL carries (issue 18 item 10).

The sweep discovers every route of ``config/urls.py`` (the admin's included), fills each path
argument with a value a person could type (0, ids past a 32- and a 64-bit integer, text), and
fires query strings with the values that broke pages before: dates at the calendar's edges
(0001-01-01 minus a day, 9999-12-31 plus a week), garbage, huge and negative numbers, for every
query key a view of the project reads (found in the source) and the admin's keys (its filters),
as an anonymous visitor, an athlete, their coach and staff. Anything but a 5xx passes: a page, a
redirect, a 400 or 404 that says what is wrong.

It runs on SQLite and PostgreSQL (PostgreSQL raises DataError where SQLite raises OverflowError).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote, urlencode

import pytest
from django.contrib import admin
from django.db import transaction
from django.http import QueryDict
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.resolvers import RegexPattern
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from chat.models import Conversation
from nutrition.access import household_for
from nutrition.models import GroceryList, Recipe
from tests.chat.admin_helpers import make_coach, make_staff
from tests.factories import ActivityFactory, SleepRecordFactory, UserFactory, build_program

ROOT = Path(__file__).resolve().parents[2]
APPS = ("chat", "coach", "config", "journal", "library", "nutrition", "programs", "training")
APPS += ("wellness",)

# what a view reads of the query string: request.GET.get("x"), request.GET["x"], "x" in request.GET
READS = re.compile(
    r"""GET\.(?:get|getlist)\(\s*["'](\w+)["']|GET\[\s*["'](\w+)["']\]|["'](\w+)["']\s+in\s+"""
    r"""(?:request\.|self\.request\.)?GET"""
)
ADMIN_KEYS = ("q", "p", "o", "all", "e", "_to_field", "_popup", "_changelist_filters")

EDGES = [
    "0001-01-01",
    "9999-12-31",
    "0001-01",
    "9999-12",
    "0000-00-00",
    "2026-02-30",
    "10000-01-01",
    "2026-11-23",
    "garbage",
    "",
    "0",
    "1",
    "-1",
    "-9223372036854775809",
    str(2**31),
    str(2**63 - 1),
    str(2**63),
    str(2**64),
    "9" * 40,
    "1e9",
    "\u0661\u0662",  # Arabic-Indic digits: str.isdigit() says yes
]
BIG_IDS = [-1, 0, 1, 2, 3, 7, 2**31 - 1, 2**31, 2**63 - 1, 2**63, 2**64, 10**30]


def query_keys() -> list[str]:
    """Every query key the project's code reads, found in its source."""
    keys: set[str] = set()
    for app in APPS:
        for source in (ROOT / app).rglob("*.py"):
            for match in READS.finditer(source.read_text()):
                keys.update(group for group in match.groups() if group)
    return sorted(keys)


def admin_keys(route: str) -> list[str]:
    """The admin's own keys and, on a changelist, its filters' parameters."""
    keys = set(ADMIN_KEYS)
    for model, model_admin in admin.site._registry.items():
        if not route.startswith(f"admin/{model._meta.app_label}/{model._meta.model_name}/"):
            continue
        for entry in model_admin.list_filter:
            if isinstance(entry, str):
                keys.update(f"{entry}{tail}" for tail in ("", "__exact", "__gte", "__lt"))
                keys.update(f"{entry}{tail}" for tail in ("__isnull", "__id__exact"))
            elif isinstance(entry, tuple):
                keys.update((f"{entry[0]}__id__exact", f"{entry[0]}__exact"))
            elif getattr(entry, "parameter_name", None):
                keys.add(entry.parameter_name)
    return sorted(keys)


def routes() -> list[tuple[str, object]]:
    """(route, pattern) for every URL of the project, admin included."""
    found = []

    def walk(resolver: URLResolver, prefix: str) -> None:
        for entry in resolver.url_patterns:
            if isinstance(entry, URLResolver):
                walk(entry, prefix + str(entry.pattern))
            elif isinstance(entry, URLPattern):
                found.append((prefix + str(entry.pattern), entry.pattern))

    walk(get_resolver(), "")
    return found


ROUTES = routes()
KEYS = query_keys()
ARG = re.compile(r"<(?:(\w+):)?(\w+)>")
APP_LABELS = sorted({model._meta.app_label for model in admin.site._registry})

value = st.one_of(
    st.sampled_from(EDGES),
    st.integers().map(str),
    st.dates().map(lambda d: d.isoformat()),
    st.text(max_size=12),
)
path_int = st.one_of(st.sampled_from(BIG_IDS), st.integers(min_value=-(10**25), max_value=10**25))
path_text = st.one_of(path_int.map(str), st.text(min_size=1, max_size=12))


def path_for(route: str, pattern: object, data: st.DataObject | None, number: int = 1) -> str:
    """The route's URL with each argument drawn by hypothesis (``data``) or ``number``."""

    def draw(strategy: st.SearchStrategy, fixed: object) -> str:
        return quote(str(fixed if data is None else data.draw(strategy)), safe="")

    if isinstance(pattern, RegexPattern):  # the admin's app index and its catch-all
        if "app_label" in route:
            return "/admin/" + draw(st.sampled_from(APP_LABELS), "programs") + "/"
        return "/admin/" + draw(path_text, number)

    def fill(match: re.Match) -> str:
        return draw(path_int if match.group(1) == "int" else path_text, number)

    return "/" + ARG.sub(fill, route)


def stock_admin(route: str) -> bool:
    """Django's own add/change/history/delete pages of a model: swept lightly."""
    return route.startswith("admin/") and (
        route.endswith(("/add/", "/history/", "/delete/", "/change/")) or route.endswith(">/")
    )


@pytest.fixture
def people(db):
    """An athlete with a program, a conversation, a household with a recipe and a list, an
    activity and a sleep record; their coach; a staff reader; and nobody."""
    coach = make_coach("coach-sweep")
    program = build_program(weeks=2, sessions=3, exercises=2, coach=coach)
    athlete = program.athlete
    Conversation.objects.create(program=program, athlete=athlete)
    home = household_for(athlete, create=True)
    Recipe.objects.create(household=home, title="Oats")
    GroceryList.objects.create(household=home, name="Week")
    ActivityFactory(athlete=athlete)
    SleepRecordFactory(athlete=athlete)
    clients = {"anonymous": Client()}
    for name, user in (
        ("athlete", athlete),
        ("coach", coach),
        ("staff", make_staff("staff-sweep")),
        ("other", UserFactory(username="other-sweep")),
    ):
        clients[name] = Client()
        clients[name].force_login(user)
    return clients


@contextmanager
def recording() -> Iterator[set[str]]:
    """The query keys read while it is open (``get``, ``getlist``, ``[key]``, ``key in``)."""
    seen: set[str] = set()
    originals = {name: getattr(QueryDict, name) for name in RECORDED}

    def spy(name: str):
        def method(self, key, *args, **kwargs):
            seen.add(key)
            return originals[name](self, key, *args, **kwargs)

        return method

    for name in RECORDED:
        setattr(QueryDict, name, spy(name))
    try:
        yield seen
    finally:
        for name, method in originals.items():
            setattr(QueryDict, name, method)


RECORDED = ("get", "getlist", "__getitem__", "__contains__")


def fetch(client: Client, url: str, params: dict[str, str]) -> int:
    if params:
        url += "?" + urlencode(params)
    with transaction.atomic():  # a failed query on PostgreSQL must not poison the next
        status = client.get(url).status_code
        transaction.set_rollback(True)
    return status


def keys_read(people: dict[str, Client], url: str) -> list[str]:
    """What the view at ``url`` reads of the query string, each key given (so a key read only
    when another is there is found too)."""
    with recording() as seen:
        for who in ("athlete", "coach", "staff"):
            fetch(people[who], url, dict.fromkeys(KEYS, "1"))
    return sorted(seen & set(KEYS))


@pytest.mark.parametrize(("route", "pattern"), ROUTES, ids=[r for r, _ in ROUTES])
def test_no_get_answers_a_server_error(people, route, pattern):
    """Every edge value for every key the view reads, and every edge id in its path, then
    hypothesis's mixes of them as each person."""
    on_admin = route.startswith("admin/")
    plain = path_for(route, pattern, None)
    keys = admin_keys(route) if on_admin else keys_read(people, plain)
    edge_user = "staff" if on_admin else "athlete"
    failures = []
    if not on_admin:
        for key in keys:
            for edge in EDGES:
                status = fetch(people[edge_user], plain, {key: edge})
                if status >= 500:
                    failures.append(f"{edge_user} GET {plain}?{key}={edge}: {status}")
    if ARG.search(route) and not stock_admin(route):
        for number in BIG_IDS:
            url = path_for(route, pattern, None, number=number)
            status = fetch(people[edge_user], url, {})
            if status >= 500:
                failures.append(f"{edge_user} GET {url}: {status}")
    assert not failures, "\n".join(failures)

    @settings(
        max_examples=3 if stock_admin(route) else 10 if on_admin else 20,
        deadline=None,
        derandomize=True,
        database=None,
        phases=[Phase.explicit, Phase.generate],  # no shrinking: the URL in the message says it
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(data=st.data())
    def sweep(data):
        who = data.draw(st.sampled_from(sorted(people)))
        params = data.draw(st.dictionaries(st.sampled_from(keys or KEYS), value, max_size=4))
        url = path_for(route, pattern, data)
        status = fetch(people[who], url, params)
        assert status < 500, f"{who} GET {url}?{urlencode(params)}: {status}"

    sweep()


def test_the_sweep_reads_the_keys_the_views_read():
    """The source scan finds the query keys of the pages the issue names."""
    assert {"week", "date", "program", "conversation", "household", "page", "q"} <= set(KEYS)
    assert any(route == "food/meals/" for route, _ in ROUTES)
    assert any(route.startswith("admin/") for route, _ in ROUTES)
