import datetime

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from programs.models import SetResult
from tests.factories import (
    ActivityFactory,
    CardioBlockFactory,
    ExerciseFactory,
    ProgramFactory,
    SessionFactory,
    UserFactory,
    WeekFactory,
)
from tests.training import files
from training.imports import import_job_run
from training.models import Activity, AthleteProfile, ImportJob

pytestmark = pytest.mark.django_db
TODAY = datetime.datetime.now(datetime.UTC).date()


@pytest.fixture
def athlete(client):
    user = UserFactory()
    client.force_login(user)
    return user


def test_pages_need_a_login(client):
    for url in ("/training/fitness/", "/training/activities/", "/training/settings/"):
        assert client.get(url).status_code == 302


def test_fitness_page_shows_the_scores_and_chart_data(client, athlete):
    ActivityFactory(athlete=athlete, local_date=TODAY, training_load=70)
    page = client.get("/training/fitness/")
    assert page.status_code == 200
    body = page.content.decode()
    assert 'id="fitness-data"' in body and "uplot/uPlot.iife.min.js" in body
    assert page.context["chart"]["load"][-1] == 70
    assert page.context["now"]["atl"] == 10.0


def test_someone_elses_activity_is_a_404(client, athlete):
    other = ActivityFactory()
    assert client.get(f"/training/activities/{other.pk}/").status_code == 404
    assert client.post(f"/training/activities/{other.pk}/delete/").status_code == 404
    assert Activity.objects.filter(pk=other.pk).exists()


def test_activity_detail_escapes_user_text_and_embeds_streams(client, athlete):
    activity = ActivityFactory(
        athlete=athlete,
        name="<script>x</script>",
        notes="<b>n</b>",
        streams={"t": [0, 5], "hr": [120, 130]},
    )
    body = client.get(f"/training/activities/{activity.pk}/").content.decode()
    assert "<script>x</script>" not in body and "&lt;script&gt;x&lt;/script&gt;" in body
    assert 'id="stream-data"' in body


def test_deleting_an_activity_is_soft(client, athlete):
    activity = ActivityFactory(athlete=athlete)
    client.post(f"/training/activities/{activity.pk}/delete/")
    assert not Activity.objects.filter(pk=activity.pk).exists()
    assert Activity.all_objects.get(pk=activity.pk).deleted_at is not None


def test_settings_save_and_bad_values_name_the_bounds(client, athlete):
    data = {
        "threshold_hr": "172",
        "weight_unit": "lb",
        "distance_unit": "mi",
        "time_zone": "America/New_York",
        "ctl_days": "42",
        "atl_days": "7",
    }
    assert client.post("/training/settings/", data).status_code == 302
    assert AthleteProfile.objects.get(athlete=athlete).distance_unit == "mi"
    page = client.post(
        "/training/settings/", {**data, "threshold_hr": "20", "time_zone": "Mars/Base"}
    )
    assert "greater than or equal to 80" in page.content.decode()
    assert "is not a time zone" in page.content.decode()
    assert AthleteProfile.objects.get(athlete=athlete).threshold_hr == 172


def test_upload_creates_a_job_and_the_status_partial_polls_until_done(
    client, athlete, django_capture_on_commit_callbacks, monkeypatch
):
    queued = []
    monkeypatch.setattr("training.tasks.import_job.delay", queued.append)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            "/training/import/",
            {"files": [_upload("a.gpx", files.gpx()), _upload("bad.csv", b"nope\n1\n")]},
        )
    job = ImportJob.objects.get(athlete=athlete)
    assert response.status_code == 302 and queued == [job.pk]
    polling = client.get(f"/training/import/{job.pk}/", headers={"HX-Request": "true"})
    assert 'hx-trigger="every 1s"' in polling.content.decode()
    import_job_run(job_id=job.pk)
    import_job_run(job_id=job.pk)  # a second run finds the job taken and does nothing
    done = client.get(
        f"/training/import/{job.pk}/", headers={"HX-Request": "true"}
    ).content.decode()
    assert "hx-trigger" not in done
    assert "imported 1 activities, 0 sleep records, skipped 0 duplicates, 1 files failed" in done
    assert "bad.csv: FAILED" in done
    assert Activity.objects.filter(athlete=athlete).count() == 1


def test_someone_elses_import_job_is_a_404(client, athlete):
    job = ImportJob.objects.create(athlete=UserFactory())
    assert client.get(f"/training/import/{job.pk}/").status_code == 404


def test_upload_without_files_says_so(client, athlete):
    response = client.post("/training/import/", {})
    assert response.status_code == 422 and "at least one file" in response.content.decode()


def _upload(name, data):
    return SimpleUploadedFile(name, data)


@pytest.fixture
def todays_session(athlete):
    program = ProgramFactory(athlete=athlete, start_date=TODAY)
    week = WeekFactory(program=program, start_date=TODAY, end_date=TODAY + datetime.timedelta(6))
    session = SessionFactory(week=week, scheduled_date=TODAY, name="Legs")
    squat = ExerciseFactory(session=session, name="Back Squat", warmup_sets=1, working_sets=2)
    return session, squat


def test_log_today_opens_todays_session_and_logging_creates_sets_and_an_activity(
    client, athlete, todays_session
):
    session, squat = todays_session
    assert client.get("/training/log/").url == f"/training/log/{session.pk}/"
    version = session.week.program.version
    response = client.post(
        f"/training/log/{session.pk}/",
        {
            f"set-{squat.pk}-1-reps": "5",
            f"set-{squat.pk}-1-load": "100 kg",
            f"set-{squat.pk}-1-rpe": "7.5",
            f"set-{squat.pk}-2-reps": "5",
            "rating": "4",
            "rpe": "7",
            "duration_min": "50",
            "notes": "felt good",
        },
    )
    activity = Activity.objects.get(athlete=athlete)
    assert response.status_code == 302 and response.url == f"/training/activities/{activity.pk}/"
    assert list(
        SetResult.objects.filter(exercise=squat).values_list(
            "set_number", "reps", "load", "is_warmup"
        )
    ) == [(1, 5, "100 kg", True), (2, 5, "", False)]
    session.refresh_from_db()
    assert (session.completed, session.rating, session.duration) == (True, 4, 50)
    assert (
        session.week.program.__class__.objects.get(pk=session.week.program_id).version
        == version + 1
    )
    assert (activity.sport, activity.load_method, activity.training_load) == (
        "STRENGTH",
        "RPE",
        70.0,
    )
    assert activity.session_id == session.pk and activity.local_date == TODAY


def test_logging_a_cardio_session_uses_heart_rate(client, athlete, todays_session):
    session, _ = todays_session
    AthleteProfile.objects.create(athlete=athlete, threshold_hr=160)
    cardio = SessionFactory(week=session.week, scheduled_date=TODAY, name="Easy run")
    CardioBlockFactory(session=cardio, duration=40, modality="Running")
    client.post(f"/training/log/{cardio.pk}/", {"actual_duration": "60", "avg_heart_rate": "144"})
    activity = Activity.objects.get(session=cardio)
    # 1 h × (144/160)² × 100 = 81
    assert (activity.sport, activity.load_method, activity.training_load) == (
        "RUNNING",
        "HEART_RATE",
        81.0,
    )
    cardio.cardio.refresh_from_db()
    assert (cardio.cardio.actual_duration, cardio.cardio.avg_heart_rate) == (60, 144)


def test_bad_set_input_changes_nothing_and_says_why(client, athlete, todays_session):
    session, squat = todays_session
    response = client.post(
        f"/training/log/{session.pk}/",
        {f"set-{squat.pk}-1-reps": "5", f"set-{squat.pk}-2-rpe": "12"},
    )
    assert response.status_code == 422
    assert "RPE goes from 1 to 10." in response.content.decode()
    assert not SetResult.objects.exists() and not Activity.objects.exists()


def test_someone_elses_session_is_a_404(client, athlete):
    other = SessionFactory()
    assert client.get(f"/training/log/{other.pk}/").status_code == 404
    assert client.post(f"/training/log/{other.pk}/", {"rating": "5"}).status_code == 404
