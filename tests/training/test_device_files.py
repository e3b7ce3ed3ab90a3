"""What files from real devices carry and the importers got wrong (issue 18 items 16–19).

Each file is written in the tests with the structure of a public device file (see
``device_files``); the figures of those public files, read through the importers, are in the
comments."""

import datetime
import importlib
import itertools
import math

import pytest
from django.apps import apps as django_apps
from fit_tool.profile.profile_type import Sport as FitSport

from tests.factories import ActivityFactory, UserFactory
from tests.training import device_files as real
from tests.training import files
from training.imports import import_files
from training.models import Activity, AthleteProfile

pytestmark = pytest.mark.django_db
UTC = datetime.UTC
T0 = datetime.datetime(2018, 5, 27, 7, 33, 1, tzinfo=UTC)


@pytest.fixture
def athlete():
    user = UserFactory()
    AthleteProfile.objects.create(athlete=user, time_zone="Europe/Paris", threshold_hr=170)
    return user


def _one(athlete, name: str, data: bytes) -> Activity:
    report = import_files(athlete=athlete, files=[(name, data)])
    assert report.failed == 0, report.files[0].line
    return Activity.objects.get(athlete=athlete)


# --- 16. no heart-rate strap: no value, not zero ---------------------------------------------


def test_a_fit_file_without_a_heart_rate_strap_stores_no_heart_rate(athlete):
    # Zwift's null_compressed_speed_dist.fit: session avg_heart_rate 0, max_heart_rate 0
    leg = real.Leg(FitSport.CYCLING, T0, 1807, 13400.14, hr=None)
    ride = _one(athlete, "zwift.fit", real.fit_sessions([leg], maker=real.Manufacturer.ZWIFT))
    assert (ride.avg_hr, ride.max_hr) == (None, None)
    assert "hr" not in ride.streams
    assert ride.load_method != "HEART_RATE"


def test_tcx_laps_without_a_strap_leave_the_average_heart_rate_alone(athlete):
    data = real.tcx_pool_swim(start=T0, laps=[(600, 500.0), (600, 500.0)], hr=150)
    data = data.replace(b"<Value>150</Value>", b"<Value>0</Value>", 1)
    swim = _one(athlete, "swim.tcx", data)
    assert swim.avg_hr == 150


def test_gpx_heart_rate_zero_is_no_heart_rate(athlete):
    points = [
        (45.0 + i * 0.0001, 14.0, None, T0 + datetime.timedelta(seconds=i)) for i in range(60)
    ]
    run = _one(athlete, "run.gpx", real.gpx(real.gpx_track(points, hr=0)))
    assert (run.avg_hr, run.max_hr) == (None, None)


def test_the_activity_page_shows_no_heart_rate_for_a_stored_zero(client, athlete):
    activity = ActivityFactory(athlete=athlete, avg_hr=0, max_hr=0)
    client.force_login(athlete)
    page = client.get(f"/training/activities/{activity.pk}/").content.decode()
    assert "Average heart rate" not in page and "Max heart rate" not in page


# --- 17. an activity is what it is, not a label -----------------------------------------------


def test_every_leg_of_a_multisport_file_imports(athlete):
    # a transition and a paddling leg are both "Other" and start in the same minute (10:30)
    legs = [
        real.Leg(FitSport.RUNNING, T0.replace(hour=10, minute=0, second=0), 1800, 5000.0),
        real.Leg(FitSport.TRANSITION, T0.replace(hour=10, minute=30, second=24), 20, 40.0),
        real.Leg(FitSport.PADDLING, T0.replace(hour=10, minute=30, second=44), 1500, 3000.0),
    ]
    data = real.fit_sessions(legs)
    report = import_files(athlete=athlete, files=[("race.fit", data)])
    assert (report.activities, report.duplicates) == (3, 0)
    assert sorted(Activity.objects.values_list("sport", flat=True)) == ["OTHER", "OTHER", "RUNNING"]
    again = import_files(athlete=athlete, files=[("race.fit", data)])
    assert (again.activities, again.duplicates) == (0, 3)


@pytest.mark.parametrize("first", ["fit", "tcx"])
def test_the_same_pool_swim_as_fit_and_tcx_imports_once(athlete, first):
    # fitparse event_timestamp.fit: a pool swim, 4567 s elapsed, 4372 s timer, 2606.04 m, HR 142
    start = datetime.datetime(2017, 6, 13, 13, 42, 30, tzinfo=UTC)
    leg = real.Leg(FitSport.SWIMMING, start, 4567, 2606.04, hr=142, timer_s=4372)
    fit = ("swim.fit", real.fit_sessions([leg], serial=3924789282))
    laps = [(437, 260.0)] * 9 + [(439, 266.04)]  # 4372 s of swimming, 2606.04 m
    tcx = ("swim.tcx", real.tcx_pool_swim(start=start, laps=laps, hr=142, rest_s=21))
    batch = [fit, tcx] if first == "fit" else [tcx, fit]
    report = import_files(athlete=athlete, files=batch)
    assert (report.activities, report.duplicates) == (1, 1)
    swim = Activity.objects.get()
    assert swim.source_format == first
    assert swim.sport == ("SWIMMING" if first == "fit" else "OTHER")


def test_different_activities_starting_the_same_second_both_import(athlete):
    start = T0
    a = real.fit_sessions([real.Leg(FitSport.RUNNING, start, 1800, 5000.0)], serial=1)
    b = real.fit_sessions([real.Leg(FitSport.RUNNING, start, 3600, 12000.0)], serial=1)
    report = import_files(athlete=athlete, files=[("a.fit", a), ("b.fit", b)])
    assert (report.activities, report.duplicates) == (2, 0)


# --- 18. GPX -----------------------------------------------------------------------------------


def _line(n: int, *, start=T0, step_s=1, lat_step=0.00002, ele=None) -> list[tuple]:
    return [
        (
            45.0 + i * lat_step,
            14.0,
            ele(i) if ele else None,
            start + datetime.timedelta(seconds=i * step_s),
        )
        for i in range(n)
    ]


@pytest.mark.parametrize(
    ("name", "type_", "sport"),
    [
        ("Morning Swim", "16", "SWIMMING"),  # Strava: a number, and a clear name
        ("Afternoon Activity", "1", "CYCLING"),  # Strava's 1 is Ride
        ("Evening Activity", "9", "RUNNING"),  # Strava's 9 is Run
        ("Zwift Session", "17", "CYCLING"),  # Strava's 17 is VirtualRide
        ("Morning Swim", "running", "RUNNING"),  # a word in <type> still says the sport
    ],
)
def test_strava_numeric_type_does_not_hide_a_clear_name(athlete, name, type_, sport):
    activity = _one(athlete, "a.gpx", real.gpx(real.gpx_track(_line(30), name=name, type_=type_)))
    assert activity.sport == sport


def _haversine(points) -> float:
    total = 0.0
    for (lat1, lon1, *_), (lat2, lon2, *_) in itertools.pairwise(points):
        p1, p2 = math.radians(lat1), math.radians(lat2)
        dp, dl = p2 - p1, math.radians(lon2 - lon1)
        a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
        total += 2 * 6371000 * math.asin(math.sqrt(a))
    return total


def test_gpx_distance_is_measured_on_the_ground_not_through_elevation_noise(athlete):
    # a 19 m walk with the ±4 m elevation jitter of a phone's GPS: 3D would count ~50 m
    points = _line(9, lat_step=0.0000215, ele=lambda i: 100.0 + (4 if i % 2 else -2))
    activity = _one(athlete, "short.gpx", real.gpx(real.gpx_track(points)))
    reference = _haversine(points)
    assert reference == pytest.approx(19.1, abs=0.2)
    assert activity.distance_m == pytest.approx(reference, rel=0.01)


def test_gpx_distance_of_a_run_is_its_ground_distance(athlete):
    # a 12.3 km run with 1 m elevation noise a point: 3D distance was 13.1 km (+6.6 %)
    points = _line(1230, step_s=5, lat_step=0.0000899, ele=lambda i: 200.0 + (i % 3) * 2.5)
    run = _one(athlete, "run.gpx", real.gpx(real.gpx_track(points)))
    assert run.distance_m == pytest.approx(_haversine(points), rel=0.005)
    assert run.distance_m == pytest.approx(12_280, rel=0.01)


def test_gpx_points_out_of_time_order_give_the_span_of_their_times(athlete):
    # gpxpy first_and_last_elevation.gpx: the last point is an hour before the one before it;
    # elapsed was last − first (3600 s) while moving time came out at 7200 s
    points = _line(10, step_s=800)  # 0 … 7200 s
    points[-1] = (*points[-1][:3], T0 + datetime.timedelta(seconds=3600))
    activity = _one(athlete, "clock.gpx", real.gpx(real.gpx_track(points)))
    assert activity.elapsed_s == 6400  # 7200 s was never reached: the latest time is 6400 s
    assert activity.moving_s <= activity.elapsed_s


def test_an_empty_gpx_track_is_skipped_with_a_note_and_the_rest_imports(athlete):
    empty = real.gpx_track([(45.0, 14.0, 100.0, None), (45.001, 14.0, 101.0, None)], name="Plan")
    good = real.gpx_track(_line(120), name="Morning Run")
    report = import_files(athlete=athlete, files=[("two.gpx", real.gpx(empty, good))])
    line = report.files[0].line
    assert report.activities == 1 and report.failed == 0
    assert "track 1 has no timed points and was skipped" in line
    assert Activity.objects.get().name == "Morning Run"


def test_a_gpx_file_with_only_empty_tracks_is_refused_in_words(athlete):
    empty = real.gpx_track([(45.0, 14.0, 100.0, None)], name="Plan")
    report = import_files(athlete=athlete, files=[("plan.gpx", real.gpx(empty))])
    assert "no track of the GPX file has timed points" in report.files[0].line
    assert Activity.objects.count() == 0


# --- 19. recoverable files are read ----------------------------------------------------------


def test_fit_times_on_the_device_clock_are_placed_by_the_activity_local_time(athlete):
    # fitparse compressed-speed-distance.fit (Forerunner 70): was "the session has no start time"
    power_on = datetime.datetime(2011, 9, 10, 8, 0, 0)  # local wall clock at device second 0
    run = _one(athlete, "fr70.fit", real.fit_device_clock(power_on_local=power_on))
    local = power_on + datetime.timedelta(seconds=17217864)
    assert run.start.astimezone(AthleteProfile.objects.get().tz).replace(tzinfo=None) == local
    assert (run.sport, run.elapsed_s, run.moving_s, run.avg_hr) == ("RUNNING", 3883, 3773, 170)
    assert run.distance_m == pytest.approx(10248.67)
    assert run.streams["t"][0] == 0 and run.streams["t"][-1] == pytest.approx(3880, abs=5)


def test_a_fit_session_without_a_start_time_starts_at_its_first_record(athlete):
    leg = real.Leg(FitSport.RUNNING, T0, 1800, 5000.0)
    run = _one(athlete, "nostart.fit", real.fit_sessions([leg], start_time=False))
    assert run.start == T0 and run.elapsed_s == 1800


@pytest.mark.parametrize(
    ("name", "data"),
    [("ws.tcx", files.tcx()), ("ws.gpx", files.gpx())],
)
def test_whitespace_before_the_xml_declaration_is_read_past(athlete, name, data):
    activity = _one(athlete, name, b"\n  \r\n\t" + data)
    assert activity.start == files.START


# --- the stored rows follow: keys by identity, no heart rate of 0 ----------------------------


def test_the_migration_rekeys_old_activities_and_clears_zero_heart_rates(athlete):
    migration = importlib.import_module(
        "training.migrations.0002_activity_identity_key_and_no_zero_heart_rate"
    )
    start = datetime.datetime(2017, 6, 13, 13, 42, 30, tzinfo=UTC)
    swim = ActivityFactory(
        athlete=athlete,
        start=start,
        elapsed_s=4567,
        distance_m=2606.04,
        avg_hr=0,
        max_hr=0,
        device_id="garmin 3924789282",
        dedupe_key="SWIMMING:2017-06-13T13:42",
    )
    logged = ActivityFactory(athlete=athlete, dedupe_key="session:7", avg_hr=150)
    migration.forwards(django_apps, None)
    swim.refresh_from_db()
    logged.refresh_from_db()
    assert swim.dedupe_key == "at:2017-06-13T13:42:30:4567:2606:garmin 3924789282"
    assert (swim.avg_hr, swim.max_hr) == (None, None)
    assert (logged.dedupe_key, logged.avg_hr) == ("session:7", 150)
    # the same swim from its TCX is now found as what it is
    laps = [(437, 260.0)] * 9 + [(439, 266.04)]
    data = real.tcx_pool_swim(start=start, laps=laps, rest_s=21)
    report = import_files(athlete=athlete, files=[("swim.tcx", data)])
    assert (report.activities, report.duplicates) == (0, 1)


@pytest.mark.parametrize(
    ("damage", "said"),
    [
        # fitdecode invalid/activity-filecrc.fit: all messages readable, the checksum wrong
        (lambda data: data[:-2] + bytes([data[-2] ^ 0xFF, data[-1]]), "mismatching CRC"),
        # fitdecode invalid/activity-unexpected-eof.fit: cut off before its checksum
        (lambda data: data[:-2], "expected 2 bytes, got 0"),
    ],
)
def test_a_fit_file_damaged_after_its_session_keeps_the_session_with_a_note(athlete, damage, said):
    data = damage(real.fit_sessions([real.Leg(FitSport.RUNNING, T0, 1800, 5000.0)]))
    report = import_files(athlete=athlete, files=[("cut.fit", data)])
    line = report.files[0].line
    assert report.activities == 1 and report.failed == 0
    assert said in line and "kept what was read before it: 1 session(s)" in line
    assert Activity.objects.get().distance_m == pytest.approx(5000.0)


def test_a_fit_file_damaged_before_any_session_is_refused_with_the_place(athlete):
    data = real.fit_sessions([real.Leg(FitSport.RUNNING, T0, 1800, 5000.0)])[:-60]
    report = import_files(athlete=athlete, files=[("cut.fit", data)])
    assert report.failed == 1 and "not a readable FIT file" in report.files[0].line
    assert "record " in report.files[0].line and Activity.objects.count() == 0


def test_a_fit_activity_without_a_session_is_computed_from_its_records(athlete):
    leg = real.Leg(FitSport.CYCLING, T0, 3600, 30000.0, hr=140)
    data = real.fit_sessions([leg], summary=False)[:-2]  # and cut before its checksum
    report = import_files(athlete=athlete, files=[("rox.fit", data)])
    line = report.files[0].line
    assert report.activities == 1, line
    assert "computed from its 721 records" in line and "expected 2 bytes" in line
    ride = Activity.objects.get()
    assert (ride.start, ride.elapsed_s, ride.avg_hr) == (T0, 3600, 140)
    assert ride.distance_m == pytest.approx(30000.0)


def test_a_fit_course_is_not_taken_for_an_activity(athlete):
    leg = real.Leg(FitSport.CYCLING, T0, 3600, 30000.0)
    data = real.fit_sessions([leg], summary=False, file_type=real.FileType.COURSE)
    report = import_files(athlete=athlete, files=[("route.fit", data)])
    assert "the FIT file has no session and no sleep data" in report.files[0].line
    assert Activity.objects.count() == 0


def test_fit_records_on_the_device_clock_before_a_satellite_fix_do_not_break_the_file(athlete):
    power_on = datetime.datetime(2011, 9, 10, 8, 0, 0)
    data = real.fit_device_clock(power_on_local=power_on, fix_at_s=60)
    run = _one(athlete, "fix.fit", data)
    assert (run.elapsed_s, run.distance_m) == (3883, pytest.approx(10248.67))


def test_a_strava_csv_row_with_heart_rate_zero_stores_no_heart_rate(athlete):
    row = files.strava_row(
        id_=1,
        date="Nov 20, 2026, 7:00:00 AM",
        name="Ride",
        type_="Ride",
        elapsed=3600,
        moving=3500,
        metres=30000.0,
        avg_hr="0",
        max_hr="0",
    )
    ride = _one(athlete, "activities.csv", files.strava_csv([row]))
    assert (ride.avg_hr, ride.max_hr) == (None, None)
