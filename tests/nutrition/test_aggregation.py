"""Seed 002's aggregation rules on the pure function: the seed's three examples, decimals, unit and
prep-state mismatches, checked lines."""

from decimal import Decimal

from nutrition.aggregation import Line, aggregate, quantity_text

RICE, CHICKEN, ONION = 1, 2, 3


def line(ingredient_id, name, quantity, unit, prep="", **extra):
    return Line(ingredient_id, name, Decimal(quantity), unit, prep, **extra)


def shown(lines):
    return [(x.name, quantity_text(x.quantity), x.unit, x.prep_state) for x in lines]


def test_seed_example_1_successful_merge():
    lines, steps = aggregate(
        [line(RICE, "rice", "1", "cup", key=10)],
        [line(RICE, "rice", "0.5", "cup"), line(RICE, "rice", "1.75", "cup")],
    )
    assert shown(lines) == [("rice", "3.25", "cup", "")]
    assert [s.action for s in steps] == ["merged", "merged"]
    assert lines[0].quantity == Decimal("3.25")


def test_seed_example_2_unit_mismatch_is_a_new_item():
    lines, steps = aggregate(
        [line(CHICKEN, "chicken", "1", "lb", key=10)], [line(CHICKEN, "chicken", "500", "g")]
    )
    assert shown(lines) == [("chicken", "1", "lb", ""), ("chicken", "500", "g", "")]
    assert [s.action for s in steps] == ["added"]


def test_seed_example_3_prep_state_mismatch_is_a_new_item():
    lines, _ = aggregate(
        [line(ONION, "onion", "1", "whole", key=10)],
        [line(ONION, "onion", "1", "whole", "chopped")],
    )
    assert shown(lines) == [("onion", "1", "whole", ""), ("onion", "1", "whole", "chopped")]


def test_decimals_add_exactly():
    lines, _ = aggregate(
        [line(RICE, "rice", "0.1", "cup", key=1)],
        [line(RICE, "rice", "0.2", "cup")],
    )
    assert lines[0].quantity == Decimal("0.3")  # 0.1 + 0.2 is 0.3, not 0.30000000000000004


def test_same_prep_state_merges_and_lines_of_the_same_push_merge_with_each_other():
    lines, steps = aggregate(
        [],
        [
            line(ONION, "onion", "1", "whole", "chopped"),
            line(ONION, "onion", "2", "whole", "chopped"),
            line(ONION, "onion", "1", "whole"),
        ],
    )
    assert shown(lines) == [("onion", "3", "whole", "chopped"), ("onion", "1", "whole", "")]
    assert [s.action for s in steps] == ["added", "merged", "added"]


def test_a_different_ingredient_never_merges_even_with_the_same_name():
    lines, _ = aggregate(
        [line(None, "rice", "1", "cup", key=1)],  # typed by hand, not a known ingredient
        [line(RICE, "rice", "1", "cup")],
    )
    assert len(lines) == 2


def test_a_ticked_off_line_is_not_merged_into():
    lines, steps = aggregate(
        [line(RICE, "rice", "1", "cup", checked=True, key=1)], [line(RICE, "rice", "1", "cup")]
    )
    assert [s.action for s in steps] == ["added"]
    assert [x.checked for x in lines] == [True, False]


def test_quantity_text_has_no_trailing_zeros_or_exponent():
    assert quantity_text(Decimal("3.250")) == "3.25"
    assert quantity_text(Decimal("20.000")) == "20"
    assert quantity_text(Decimal("0.001")) == "0.001"
