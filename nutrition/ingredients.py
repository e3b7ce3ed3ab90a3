"""The known-ingredient table's data file (``data/ingredients.txt``), read by the data migration
that loads it and by the tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .models import Ingredient

DATA_FILE = Path(__file__).resolve().parent / "data" / "ingredients.txt"


def known_ingredients() -> list[tuple[str, str]]:
    """``[(name, category)]`` in file order."""
    out = []
    for line in DATA_FILE.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        category, _, names = line.partition(":")
        out.extend((name.strip(), category.strip()) for name in names.split(",") if name.strip())
    return out


def load_known_ingredients(model: Any = None) -> int:
    """Add the file's ingredients that are missing (``model``: the migration's historical model);
    returns how many were added. Safe to run again."""
    model = model or Ingredient
    have = set(model.objects.values_list("name", flat=True))
    missing = [model(name=n, category=c) for n, c in known_ingredients() if n not in have]
    model.objects.bulk_create(missing)
    return len(missing)
