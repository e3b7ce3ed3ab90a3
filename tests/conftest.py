import pytest

from tests.factories import build_program

pytest_plugins = ["tests.fakes.plugin"]


@pytest.fixture
def program(db):
    """Two weeks × three sessions × four exercises, owned by a fresh athlete."""
    return build_program(weeks=2, sessions=3, exercises=4)
