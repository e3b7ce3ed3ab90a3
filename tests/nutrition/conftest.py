import pytest

from nutrition.ingredients import load_known_ingredients


@pytest.fixture(autouse=True)
def known_ingredients(db):
    """Transactional tests flush the migration's data: load the known ingredients again."""
    load_known_ingredients()
