"""FIT files written on the fly, for ``manage.py bench_import`` and the tests: an activity (records
every 5 s and a session) and a night's sleep (levels, score, HRV), as a Garmin device writes them.

fit-tool (the writer) is a dev dependency, so a production install without the dev extras has no
writer: ``AVAILABLE`` is then False and the benchmark says what it needs. Spotter reads FIT with
fitdecode (``training/importers``), never with this module.
"""

from __future__ import annotations

import datetime

try:
    from fit_tool.fit_file_builder import FitFileBuilder
    from fit_tool.profile.messages.file_id_message import FileIdMessage
    from fit_tool.profile.messages.hrv_status_summary_message import HrvStatusSummaryMessage
    from fit_tool.profile.messages.record_message import RecordMessage
    from fit_tool.profile.messages.session_message import SessionMessage
    from fit_tool.profile.messages.sleep_assessment_message import SleepAssessmentMessage
    from fit_tool.profile.messages.sleep_level_message import SleepLevelMessage
    from fit_tool.profile.profile_type import FileType, Manufacturer, SleepLevel, Sport
except ImportError:  # installed without the dev extras
    AVAILABLE = False
else:
    AVAILABLE = True

START = datetime.datetime(2026, 11, 20, 7, 0, tzinfo=datetime.UTC)


def _ms(moment: datetime.datetime) -> int:
    return round(moment.timestamp() * 1000)


def fit_activity(
    *,
    start: datetime.datetime = START,
    minutes: int = 30,
    sport=None,
    hr: int = 150,
    power: int | None = None,
    distance_m: float = 6000.0,
) -> bytes:
    """``sport``: a fit-tool ``Sport`` (running unless given)."""
    builder = FitFileBuilder(auto_define=True, min_string_size=50)
    file_id = FileIdMessage()
    file_id.type = FileType.ACTIVITY
    file_id.manufacturer = Manufacturer.GARMIN.value
    file_id.product = 1
    file_id.serial_number = 0x12345678
    file_id.time_created = _ms(start)
    builder.add(file_id)
    seconds = minutes * 60
    for second in range(0, seconds, 5):
        record = RecordMessage()
        record.timestamp = _ms(start + datetime.timedelta(seconds=second))
        record.heart_rate = hr + (second // 60) % 5
        record.speed = distance_m / seconds
        record.altitude = 100.0 + (second % 300) / 10
        if power is not None:
            record.power = power
        builder.add(record)
    session = SessionMessage()
    session.timestamp = _ms(start + datetime.timedelta(seconds=seconds))
    session.start_time = _ms(start)
    session.sport = Sport.RUNNING if sport is None else sport
    session.total_elapsed_time = seconds
    session.total_timer_time = seconds
    session.total_distance = distance_m
    session.avg_heart_rate = hr + 2
    session.max_heart_rate = hr + 4
    session.total_ascent = 42
    session.total_calories = 400
    if power is not None:
        session.avg_power = power
        session.normalized_power = power
    builder.add(session)
    return builder.build().to_bytes()


def fit_sleep(*, woke: datetime.datetime, hours: float = 7.5, score: int = 82, hrv: float = 55.0):
    builder = FitFileBuilder(auto_define=True, min_string_size=50)
    file_id = FileIdMessage()
    file_id.type = FileType.MONITORING_B
    file_id.manufacturer = Manufacturer.GARMIN.value
    file_id.product = 1
    file_id.serial_number = 1
    file_id.time_created = _ms(woke)
    builder.add(file_id)
    asleep = woke - datetime.timedelta(hours=hours)
    for minute in range(0, round(hours * 60) + 1, 30):
        level = SleepLevelMessage()
        level.timestamp = _ms(asleep + datetime.timedelta(minutes=minute))
        level.sleep_level = SleepLevel.LIGHT
        builder.add(level)
    assessment = SleepAssessmentMessage()
    assessment.overall_sleep_score = score
    builder.add(assessment)
    summary = HrvStatusSummaryMessage()
    summary.timestamp = _ms(woke)
    summary.last_night_average = hrv
    builder.add(summary)
    return builder.build().to_bytes()
