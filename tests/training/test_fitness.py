import datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from training import fitness

D = datetime.date(2026, 1, 1)


def day(n: int) -> datetime.date:
    return D + datetime.timedelta(days=n)


def test_pmc_matches_hand_computed_values_on_a_fixed_load_series():
    # loads 100, 0, 50 from zero: by hand with k = 1/42 and 1/7
    # day 0: CTL = 100/42 = 2.380952, ATL = 100/7 = 14.285714, TSB = 0 - 0 = 0
    # day 1: CTL = 2.380952 × 41/42 = 2.324263, ATL = 14.285714 × 6/7 = 12.244898,
    #        TSB = 2.380952 - 14.285714 = -11.904762
    # day 2: CTL = 2.324263 + (50 - 2.324263)/42 = 3.459400,
    #        ATL = 12.244898 + (50 - 12.244898)/7 = 17.638484, TSB = 2.324263 - 12.244898 = -9.920635
    series = fitness.pmc(loads={day(0): 100, day(2): 50}, first_day=day(0), last_day=day(2))
    assert [round(d.ctl, 6) for d in series] == [2.380952, 2.324263, 3.4594]
    assert [round(d.atl, 6) for d in series] == [14.285714, 12.244898, 17.638484]
    assert [round(d.tsb, 6) for d in series] == [0.0, -11.904762, -9.920635]
    assert [d.load for d in series] == [100, 0, 50]


def test_form_uses_yesterdays_fitness_and_fatigue():
    series = fitness.pmc(loads={day(0): 70}, first_day=day(0), last_day=day(1))
    assert series[1].tsb == pytest.approx(series[0].ctl - series[0].atl)


def test_constant_load_converges_to_that_load():
    series = fitness.pmc(
        loads={day(n): 60 for n in range(400)}, first_day=day(0), last_day=day(399)
    )
    assert series[-1].ctl == pytest.approx(60, abs=0.01)
    assert series[-1].atl == pytest.approx(60, abs=1e-9)


def test_starting_values_hold_on_the_day_before_the_first_day():
    series = fitness.pmc(loads={}, first_day=day(0), last_day=day(0), ctl0=42, atl0=14)
    assert series[0].tsb == 28
    assert series[0].ctl == pytest.approx(42 * 41 / 42)
    assert series[0].atl == pytest.approx(14 * 6 / 7)


def test_custom_time_constants_are_used():
    series = fitness.pmc(
        loads={day(0): 100}, first_day=day(0), last_day=day(0), ctl_days=10, atl_days=5
    )
    assert (series[0].ctl, series[0].atl) == (10, 20)


def test_days_from_projected_from_are_marked_projected():
    series = fitness.pmc(loads={}, first_day=day(0), last_day=day(3), projected_from=day(2))
    assert [d.projected for d in series] == [False, False, True, True]


def test_power_tss_of_an_hour_at_ftp_is_100():
    assert fitness.power_tss(duration_s=3600, power_w=250, ftp_w=250) == pytest.approx(100)
    # 2 h at IF 0.8: 2 × 0.8² × 100 = 128
    assert fitness.power_tss(duration_s=7200, power_w=200, ftp_w=250) == pytest.approx(128)


def test_hr_tss_is_hours_times_squared_hr_ratio():
    # 1.5 h at 150/170: 1.5 × (150/170)² × 100 = 116.78
    assert fitness.hr_tss(duration_s=5400, avg_hr=150, threshold_hr=170) == pytest.approx(
        116.782, abs=0.001
    )


def test_estimate_prefers_file_then_power_then_hr_then_rpe_then_default():
    common = {"sport": "CYCLING", "duration_s": 3600}
    assert fitness.estimate_load(**common, file_load=88) == (88, "FILE")
    assert fitness.estimate_load(
        **common, power_w=200, ftp_w=250, avg_hr=150, threshold_hr=160
    ) == (
        64.0,
        "POWER",
    )
    assert fitness.estimate_load(**common, power_w=200, avg_hr=160, threshold_hr=160) == (
        100.0,
        "HEART_RATE",
    )
    assert fitness.estimate_load(**common, avg_hr=150, rpe=8) == (96.0, "RPE")
    assert fitness.estimate_load(**common) == (50.0, "ESTIMATE")
    assert fitness.estimate_load(sport="RUNNING", duration_s=1800) == (30.0, "ESTIMATE")


def test_planned_load_adds_cardio_by_type_and_three_per_working_set():
    assert fitness.planned_load(cardio_type="zone2", cardio_minutes=60, working_sets=0) == 50
    assert fitness.planned_load(cardio_type="threshold", cardio_minutes=30, working_sets=0) == 45
    assert fitness.planned_load(cardio_type=None, cardio_minutes=None, working_sets=12) == 36
    assert fitness.planned_load(cardio_type="zone2", cardio_minutes=30, working_sets=10) == 55


@given(
    load=st.floats(min_value=0, max_value=500, allow_nan=False),
    n=st.integers(min_value=1, max_value=400),
)
def test_a_constant_load_from_zero_follows_the_closed_form(load, n):
    # CTL_n = L × (1 − (41/42)^n), ATL_n = L × (1 − (6/7)^n)
    series = fitness.pmc(
        loads={day(i): load for i in range(n)}, first_day=day(0), last_day=day(n - 1)
    )
    assert series[-1].ctl == pytest.approx(load * (1 - (41 / 42) ** n), abs=1e-6)
    assert series[-1].atl == pytest.approx(load * (1 - (6 / 7) ** n), abs=1e-6)
    assert all(d.tsb <= 0 for d in series)  # fatigue rises faster than fitness
