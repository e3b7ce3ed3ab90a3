import pytest
from django.core.cache import cache

from tests.factories import build_program

pytest_plugins = ["tests.fakes.plugin"]


@pytest.fixture
def program(db):
    """Two weeks × three sessions × four exercises, owned by a fresh athlete."""
    return build_program(weeks=2, sessions=3, exercises=4)


@pytest.fixture(autouse=True)
def _empty_cache():
    """Each test starts with an empty cache: rolled-back tests can reuse a primary key (SQLite),
    so a rendering cached by one test must not be found by the next."""
    cache.clear()
    yield
    cache.clear()
