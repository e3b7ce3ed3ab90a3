import datetime
import gzip

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from fit_tool.profile.profile_type import Sport as FitSport

from tests.factories import (
    CardioBlockFactory,
    ExerciseFactory,
    ProgramFactory,
    SessionFactory,
    UserFactory,
    WeekFactory,
)
from tests.training import files
from training import fit_writer
from training.imports import import_files
from training.models import Activity, AthleteProfile, SleepRecord

pytestmark = pytest.mark.django_db


@pytest.fixture
def athlete():
    user = UserFactory()
    AthleteProfile.objects.create(athlete=user, time_zone="Europe/Paris", threshold_hr=170)
    return user


def test_fit_activity_imports_numbers_streams_and_device(athlete):
    report = import_files(
        athlete=athlete,
        files=[
            ("ride.fit", fit_writer.fit_activity(sport=FitSport.CYCLING, power=200, minutes=60))
        ],
    )
    assert (
        report.summary
        == "imported 1 activities, 0 sleep records, skipped 0 duplicates, 0 files failed"
    )
    activity = Activity.objects.get(athlete=athlete)
    assert activity.sport == "CYCLING"
    assert activity.start == files.START
    assert activity.local_date == datetime.date(2026, 11, 20)
    assert (activity.moving_s, activity.avg_hr, activity.normalized_power_w) == (3600, 152, 200)
    assert activity.source_format == "fit" and activity.source_file == "ride.fit"
    assert "305419896" in activity.device_id
    assert len(activity.streams["t"]) == 720 and set(activity.streams) >= {"hr", "power", "alt"}
    # no FTP on the profile: the load comes from heart rate (1 h × (152/170)² × 100)
    assert activity.load_method == "HEART_RATE"
    assert activity.training_load == pytest.approx(79.9, abs=0.05)


def test_power_load_is_used_when_the_profile_has_an_ftp(athlete):
    AthleteProfile.objects.filter(athlete=athlete).update(ftp_w=250)
    import_files(
        athlete=athlete, files=[("ride.fit", fit_writer.fit_activity(power=200, minutes=60))]
    )
    activity = Activity.objects.get()
    assert (activity.load_method, activity.training_load) == ("POWER", 64.0)


def test_long_streams_are_cut_to_2000_points(athlete):
    import_files(athlete=athlete, files=[("long.fit", fit_writer.fit_activity(minutes=240))])
    streams = Activity.objects.get().streams
    assert len(streams["t"]) <= 2000 and len(streams["hr"]) == len(streams["t"])


def test_fit_sleep_messages_become_a_sleep_record(athlete):
    woke = datetime.datetime(2026, 11, 21, 6, 30, tzinfo=datetime.UTC)
    report = import_files(athlete=athlete, files=[("sleep.fit", fit_writer.fit_sleep(woke=woke))])
    assert (report.sleep, report.activities) == (1, 0)
    record = SleepRecord.objects.get()
    assert (record.night, record.duration_min, record.score, record.hrv_ms) == (
        datetime.date(2026, 11, 21),
        450,
        82,
        55.0,
    )


def test_gpx_heart_rate_comes_from_the_trackpoint_extension(athlete):
    import_files(athlete=athlete, files=[("run.gpx", files.gpx(hr=140))])
    activity = Activity.objects.get()
    assert activity.sport == "RUNNING" and activity.name == "Morning Run"
    assert (activity.avg_hr, activity.max_hr) == (143, 146)
    assert activity.distance_m == pytest.approx(3990, rel=0.01)
    assert activity.streams["hr"][0] == 140


def test_tcx_laps_and_trackpoints(athlete):
    import_files(athlete=athlete, files=[("ride.tcx", files.tcx())])
    activity = Activity.objects.get()
    assert activity.sport == "CYCLING"
    assert (activity.moving_s, activity.distance_m, activity.calories) == (1800, 15000, 500)
    assert (activity.avg_hr, activity.max_hr, activity.avg_power_w) == (132, 150, 184)
    assert activity.streams["power"][:2] == [180.0, 181.0]


def test_spotter_csv_with_dates_date_times_and_empty_load(athlete):
    data = files.spotter_csv(
        [
            "2026-11-18,RUNNING,Easy run,3600,10000,140,160,50,",
            "2026-11-19T18:30,CYCLING,Commute,1800,12000,,,,25",
            "2026-11-20T07:00:00+00:00,strength,Gym,2700,,,,,",
        ]
    )
    report = import_files(athlete=athlete, files=[("mine.csv", data)])
    assert report.activities == 3
    run, ride, gym = Activity.objects.order_by("start")
    assert (run.local_date, run.load_method, run.training_load) == (
        datetime.date(2026, 11, 18),
        "HEART_RATE",
        67.8,
    )
    assert ride.start == datetime.datetime(2026, 11, 19, 17, 30, tzinfo=datetime.UTC)  # Paris
    assert (ride.training_load, ride.load_method) == (25, "FILE")
    assert (gym.sport, gym.load_method, gym.training_load) == ("STRENGTH", "ESTIMATE", 30.0)


def test_sleep_csv(athlete):
    report = import_files(
        athlete=athlete,
        files=[
            ("sleep.csv", files.sleep_csv(["2026-11-20,450,81,48,62.5", "2026-11-21,390,,50,"]))
        ],
    )
    assert report.sleep == 2
    assert list(SleepRecord.objects.order_by("night").values_list("score", "hrv_ms")) == [
        (81, 62.5),
        (None, None),
    ]


def test_strava_csv_is_read_by_position(athlete):
    data = files.strava_csv(
        [
            files.strava_row(
                id_=1,
                date="Nov 20, 2026, 7:00:00 AM",
                name="Lunch Ride",
                type_="Ride",
                elapsed=3700,
                moving=3600,
                metres=30000,
                avg_hr="140",
                max_hr="170",
                watts="180",
                np_="195",
            ),
            files.strava_row(
                id_=2,
                date="Nov 21, 2026, 6:00:00 PM",
                name="Tempo, hard",
                type_="Run",
                elapsed=2000,
                moving=1900,
                metres=6000,
                rpe="7",
            ),
        ]
    )
    report = import_files(athlete=athlete, files=[("activities.csv", data)])
    assert report.activities == 2
    ride, run = Activity.objects.order_by("start")
    assert (ride.sport, ride.elapsed_s, ride.moving_s, ride.distance_m) == (
        "CYCLING",
        3700,
        3600,
        30000,
    )
    assert (ride.avg_hr, ride.max_hr, ride.normalized_power_w, ride.calories) == (
        140,
        170,
        195,
        612,
    )
    assert (run.sport, run.name, run.rpe, run.load_method) == ("RUNNING", "Tempo, hard", 7, "RPE")


def test_garmin_csv_english_with_thousands_separators_and_dashes(athlete):
    data = files.garmin_csv(
        files.GARMIN_EN_HEADER,
        [
            'Running,2026-11-20 07:00:00,false,Paris Running,10.02,"1,234",00:50:10,150,175,3.1,'
            "5:00,--,--,--,00:49:00,00:52:00",
            'Pool Swim,2026-11-21 12:00:00,false,Pool,"1,500",300,00:40:00,--,--,--,--,--,--,--,--,--',
        ],
    )
    report = import_files(athlete=athlete, files=[("Activities.csv", data)])
    assert report.summary.endswith("0 files failed")
    run, swim = Activity.objects.order_by("start")
    assert (run.distance_m, run.calories, run.moving_s, run.elapsed_s) == (10020, 1234, 2940, 3120)
    assert run.start == datetime.datetime(2026, 11, 20, 6, 0, tzinfo=datetime.UTC)  # Paris time
    assert (swim.sport, swim.distance_m, swim.avg_hr, swim.elevation_gain_m) == (
        "SWIMMING",
        1500,
        None,
        None,
    )


def test_garmin_csv_german_headers_and_decimal_commas(athlete):
    data = files.garmin_csv(
        files.GARMIN_DE_HEADER,
        [
            'Laufen,2026-11-20 07:00:00,false,Lauf,"10,5","1.234",01:00:00,150,170,3,5:40,"1.020",'
            '"85,5",--,00:58:00,01:01:00',
        ],
    )
    import_files(athlete=athlete, files=[("Activities.csv", data)])
    run = Activity.objects.get()
    assert (run.sport, run.distance_m, run.calories, run.elevation_gain_m) == (
        "RUNNING",
        10500,
        1234,
        1020,
    )
    assert (run.training_load, run.load_method) == (85.5, "FILE")


def test_importing_the_same_files_again_creates_nothing_new(athlete):
    batch = [
        ("a.fit", fit_writer.fit_activity()),
        ("a.csv", files.spotter_csv(["2026-11-18,RUNNING,Easy,3600,,,,,"])),
        ("s.csv", files.sleep_csv(["2026-11-20,400,,,"])),
    ]
    import_files(athlete=athlete, files=batch)
    report = import_files(athlete=athlete, files=batch)
    assert (
        report.summary
        == "imported 0 activities, 0 sleep records, skipped 3 duplicates, 0 files failed"
    )
    assert Activity.objects.count() == 2 and SleepRecord.objects.count() == 1


def test_the_same_activity_from_fit_and_gpx_is_one_activity(athlete):
    # the same 30 min, 6 km run: the GPX track's 181 points 10 s apart span 1800 s and ~6.0 km
    report = import_files(
        athlete=athlete,
        files=[("a.fit", fit_writer.fit_activity()), ("a.gpx", files.gpx(points=181))],
    )
    assert (report.activities, report.duplicates) == (1, 1)


@pytest.mark.parametrize(
    ("name", "data", "where"),
    [
        ("broken.fit", fit_writer.fit_activity()[:-40], "broken.fit"),
        ("broken.gpx", b"<gpx><trk><trkseg><trkpt lat='1' lon='2'></trk>", "line 1"),
        ("broken.tcx", b"<TrainingCenterDatabase><Activities><Activity>", "line 1"),
        (
            "broken.csv",
            files.spotter_csv(
                ["2026-11-18,RUNNING,ok,600,,,,,", "2026-11-19,RUNNING,bad,ten minutes,,,,,"]
            ),
            "line 3",
        ),
        ("sleep.csv", files.sleep_csv(["2026-11-20,400,101,,"]), "line 2"),
        ("activities.csv", files.strava_csv(["3,not a date,x,Run,,60,0.1"]), "line 2"),
        (
            "Activities.csv",
            files.garmin_csv(
                files.GARMIN_EN_HEADER,
                ["Running,2026-11-20 07:00:00,false,x,abc,1,00:10:00,,,,,,,,,"],
            ),
            "line 2",
        ),
    ],
)
def test_a_broken_file_of_each_format_keeps_nothing_and_names_the_place(athlete, name, data, where):
    report = import_files(athlete=athlete, files=[(name, data), ("good.gpx", files.gpx())])
    bad, good = report.files
    assert not bad.ok and bad.line.startswith(f"{name}: FAILED") and where in bad.line
    assert good.ok and good.activities == 1
    assert Activity.objects.count() == 1 and SleepRecord.objects.count() == 0
    assert report.failed == 1


def test_unknown_csv_header_names_the_accepted_ones(athlete):
    report = import_files(athlete=athlete, files=[("x.csv", b"a,b\n1,2\n")])
    assert "unknown CSV header" in report.files[0].error and "line 1" in report.files[0].error


def test_gpx_with_an_entity_bomb_is_refused(athlete):
    bomb = (
        b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">]>'
        b"<gpx><trk><name>&lol;</name></trk></gpx>"
    )
    report = import_files(athlete=athlete, files=[("bomb.gpx", bomb)])
    assert "unsafe" in report.files[0].error


def test_one_thousand_csv_rows_import_in_batched_inserts_not_a_query_per_row(athlete):
    rows = [
        f"{datetime.date(2024, 1, 1) + datetime.timedelta(days=i)},RUNNING,Run {i},3000,8000,"
        "145,160,30,"
        for i in range(1000)
    ]
    with CaptureQueriesContext(connection) as queries:
        report = import_files(athlete=athlete, files=[("big.csv", files.spotter_csv(rows))])
    assert report.activities == 1000
    inserts = [q for q in queries.captured_queries if q["sql"].startswith("INSERT")]
    assert len(inserts) <= 40  # SQLite caps a statement's parameters; PostgreSQL needs 2
    assert len(queries) - len(inserts) <= 8


def test_gzipped_files_from_a_strava_export_are_read(athlete):
    report = import_files(
        athlete=athlete, files=[("123.fit.gz", gzip.compress(fit_writer.fit_activity()))]
    )
    assert report.activities == 1
    assert Activity.objects.get().source_format == "fit"


def test_an_error_no_importer_foresaw_fails_only_that_file(athlete, monkeypatch):
    def boom(name, data):
        raise TypeError("surprise")

    monkeypatch.setattr("training.importers.tcx.parse", boom)
    report = import_files(athlete=athlete, files=[("x.tcx", files.tcx()), ("a.gpx", files.gpx())])
    assert report.files[0].error == "could not be read (TypeError)"
    assert report.files[1].activities == 1


def test_an_imported_activity_is_linked_to_the_session_planned_that_day_for_its_sport(athlete):
    program = ProgramFactory(athlete=athlete, start_date=datetime.date(2026, 11, 16))
    week = WeekFactory(program=program)
    gym = SessionFactory(week=week, scheduled_date=datetime.date(2026, 11, 20))
    ExerciseFactory(session=gym)
    run = SessionFactory(week=week, scheduled_date=datetime.date(2026, 11, 20))
    CardioBlockFactory(session=run, modality="Running")
    version = program.version
    import_files(
        athlete=athlete,
        files=[
            ("a.fit", fit_writer.fit_activity()),
            (
                "b.csv",
                files.spotter_csv(
                    ["2026-11-20,STRENGTH,Gym,3000,,,,,", "2026-11-20,CYCLING,Spin,1800,,,,,"]
                ),
            ),
        ],
    )
    links = dict(Activity.objects.values_list("sport", "session_id"))
    assert links == {"RUNNING": run.pk, "STRENGTH": gym.pk, "CYCLING": None}
    program.refresh_from_db()
    assert program.version == version  # linking writes no program data
