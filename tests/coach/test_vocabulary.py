"""One vocabulary (coach/vocabulary.py): day names, sports, cardio types, units and plurals are
spelled once, and the families' choices built from it keep the spellings their rows are stored in."""

from __future__ import annotations

import ast
import datetime
from pathlib import Path

from django.conf import settings

from coach import vocabulary
from coach.llm.offline.grammar import parse_day
from library.models import Sport as LibrarySport
from programs.models import CardioType
from training.models import DistanceUnit, WeightUnit
from training.models import Sport as TrainingSport

ROOT = Path(settings.BASE_DIR)
A_MONDAY = datetime.date(2026, 11, 23)


def test_day_names_follow_date_weekday():
    week = [A_MONDAY + datetime.timedelta(days=n) for n in range(7)]
    assert [vocabulary.day_name(day) for day in week] == [day.strftime("%A") for day in week]
    assert vocabulary.DAY_ABBREVIATIONS == ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


def test_a_weekday_is_read_from_its_first_three_letters():
    assert vocabulary.weekday_index("mon") == 0
    assert vocabulary.weekday_index("Weds") == 2
    assert vocabulary.weekday_index("SUNDAY") == 6
    assert vocabulary.weekday_index("someday") is None
    assert vocabulary.weekday_index("") is None


def test_the_offline_coach_reads_days_through_the_vocabulary():
    assert parse_day("thurs") == "Thursday"
    assert parse_day("sat") == "Saturday"
    assert parse_day(None) is None


def test_plural_puts_the_count_first_and_adds_s_unless_one():
    assert [vocabulary.plural(n, "week") for n in (0, 1, 2)] == ["0 weeks", "1 week", "2 weeks"]


def test_the_families_choices_keep_their_stored_spellings_labels_and_order():
    assert TrainingSport.choices == [
        ("RUNNING", "Running"),
        ("CYCLING", "Cycling"),
        ("SWIMMING", "Swimming"),
        ("STRENGTH", "Strength"),
        ("OTHER", "Other"),
    ]
    assert TrainingSport.RUNNING == "RUNNING" and TrainingSport.__module__ == "training.models"
    assert LibrarySport.values == [
        "strength",
        "running",
        "cycling",
        "rowing",
        "swimming",
        "conditioning",
        "mobility",
    ]
    assert LibrarySport("rowing").label == "Rowing"
    assert CardioType.choices == [
        ("zone2", "Zone 2"),
        ("intervals", "Intervals"),
        ("sweetspot", "Sweet spot"),
        ("threshold", "Threshold"),
        ("vo2max", "VO2 max"),
    ]
    assert CardioType.VO2MAX == "vo2max"
    assert WeightUnit.choices == [("kg", "kg"), ("lb", "lb")]
    assert DistanceUnit.choices == [("km", "km"), ("mi", "mi")]


def day_lists(tree: ast.AST) -> list[int]:
    """Lines of the tuples, lists and sets in ``tree`` that hold three day names or more."""
    names = set(vocabulary.DAY_NAMES) | {name.lower() for name in vocabulary.DAY_NAMES}
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Tuple | ast.List | ast.Set)
        and sum(isinstance(e, ast.Constant) and e.value in names for e in node.elts) >= 3
    ]


def test_no_module_outside_the_vocabulary_lists_the_day_names():
    skipped = {"tests", ".venv", ".git", "migrations", "node_modules", "var"}
    copies = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in ROOT.rglob("*.py")
        if not skipped.intersection(path.relative_to(ROOT).parts)
        for line in day_lists(ast.parse(path.read_text()))
    ]
    assert copies == ["coach/vocabulary.py:20"]


def test_a_list_of_day_names_is_seen_as_a_copy():
    tree = ast.parse('WEEKDAYS = ("monday", "tuesday", "wednesday")\nDAY = ("Monday",)')
    assert day_lists(tree) == [1]
