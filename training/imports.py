"""Importing files of activities and sleep: each file all or nothing, duplicates skipped, a bad
file named with its line or record while the other files still import. The command, the upload
page's Celery task and the tests all call ``import_files`` (or ``import_job_run``).
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from django.conf import settings
from django.core.files.uploadedfile import UploadedFile
from django.db import DatabaseError, transaction
from django.utils import timezone

from config import uploads
from programs import workout_log

from .dedupe import split_new
from .importers import FileFormatError, Parsed, parse_file
from .importers.base import sport_from_text
from .models import Activity, AthleteProfile, ImportFile, ImportJob, ImportStatus, SleepRecord
from .services import build_activity, profile_for

logger = logging.getLogger(__name__)


@dataclass
class FileResult:
    name: str
    activities: int = 0
    sleep: int = 0
    duplicates: int = 0
    error: str = ""
    notes: list[str] = field(default_factory=list)  # what the file skipped and why

    @property
    def ok(self) -> bool:
        return not self.error

    @property
    def line(self) -> str:
        if self.error:
            return f"{self.name}: FAILED {self.error}"
        notes = "".join(f"; {note}" for note in self.notes)
        return (
            f"{self.name}: {self.activities} activities, {self.sleep} sleep records, "
            f"{self.duplicates} duplicates skipped{notes}"
        )


@dataclass
class ImportReport:
    files: list[FileResult] = field(default_factory=list)

    @property
    def activities(self) -> int:
        return sum(f.activities for f in self.files)

    @property
    def sleep(self) -> int:
        return sum(f.sleep for f in self.files)

    @property
    def duplicates(self) -> int:
        return sum(f.duplicates for f in self.files)

    @property
    def failed(self) -> int:
        return sum(1 for f in self.files if not f.ok)

    @property
    def summary(self) -> str:
        return (
            f"imported {self.activities} activities, {self.sleep} sleep records, "
            f"skipped {self.duplicates} duplicates, {self.failed} files failed"
        )


def _store(*, athlete, profile: AthleteProfile, parsed: Parsed, name: str) -> FileResult:
    result = FileResult(name=name, notes=list(parsed.notes))
    built = [
        build_activity(
            athlete=athlete, profile=profile, data=data, source=name, source_format=parsed.format
        )
        for data in parsed.activities
    ]
    if built:
        fresh, result.duplicates = split_new(athlete=athlete, activities=built)
        _link_planned_sessions(athlete=athlete, activities=fresh)
        Activity.objects.bulk_create(fresh, batch_size=500)
        result.activities = len(fresh)
    if parsed.sleep:
        nights = [s.night for s in parsed.sleep]
        known_nights = set(
            SleepRecord.objects.filter(
                athlete=athlete, night__gte=min(nights), night__lte=max(nights)
            ).values_list("night", flat=True)
        )
        records = []
        for data in parsed.sleep:
            if data.night in known_nights:
                result.duplicates += 1
                continue
            known_nights.add(data.night)
            records.append(
                SleepRecord(
                    athlete=athlete,
                    night=data.night,
                    duration_min=data.duration_min,
                    score=data.score,
                    resting_hr=data.resting_hr,
                    hrv_ms=data.hrv_ms,
                    source=f"{parsed.format}: {name}"[:50],
                )
            )
        SleepRecord.objects.bulk_create(records, batch_size=500)
        result.sleep = len(records)
    return result


def _link_planned_sessions(*, athlete, activities: list[Activity]) -> None:
    """Link each activity to the program session planned that day for the same sport (a cardio
    block's modality, or strength work), one activity per session. Only the link is written; the
    session is marked done by the athlete's log or the coach."""
    if not activities:
        return
    days = [a.local_date for a in activities]
    taken = set(
        Activity.all_objects.filter(
            athlete=athlete, local_date__gte=min(days), local_date__lte=max(days)
        )
        .exclude(session=None)
        .values_list("session_id", flat=True)
    )
    planned = workout_log.planned_sessions(
        athlete=athlete, start=min(days), end=max(days), include_completed=True
    )
    for activity in activities:
        for session in planned:
            if session.date != activity.local_date or session.session_id in taken:
                continue
            if session.cardio_type:
                sport = sport_from_text(session.cardio_modality or "running")
            else:
                sport = "STRENGTH" if session.working_sets else None
            if sport == activity.sport:
                activity.session_id = session.session_id
                taken.add(session.session_id)
                break


def import_file(*, athlete, profile: AthleteProfile, name: str, data: bytes) -> FileResult:
    """One file, all or nothing."""
    try:
        parsed = parse_file(name, data)
        with transaction.atomic():
            return _store(athlete=athlete, profile=profile, parsed=parsed, name=name)
    except FileFormatError as exc:
        return FileResult(name=name, error=str(exc))
    except DatabaseError as exc:
        return FileResult(name=name, error=f"could not be saved ({exc.__class__.__name__})")
    except Exception as exc:  # a file no importer foresaw must not stop the other files
        logger.exception("importing %s failed", name)
        return FileResult(name=name, error=f"could not be read ({exc.__class__.__name__})")


def import_files(
    *,
    athlete,
    files: Iterable[tuple[str, bytes]],
    on_file: Callable[[FileResult], None] | None = None,
) -> ImportReport:
    profile = profile_for(athlete=athlete)
    report = ImportReport()
    for name, data in files:
        result = import_file(athlete=athlete, profile=profile, name=name, data=data)
        report.files.append(result)
        if on_file is not None:
            on_file(result)
    return report


# --- upload jobs --------------------------------------------------------------------------------


def _size(data: bytes | UploadedFile) -> int:
    return len(data) if isinstance(data, bytes) else data.size


def _read(data: bytes | UploadedFile) -> bytes:
    return data if isinstance(data, bytes) else data.read()


def import_job_create(
    *,
    athlete,
    files: list[tuple[str, bytes | UploadedFile]],
    refused: list[tuple[str, str]] = (),
) -> ImportJob:
    """Store the uploaded files, one at a time, and a failed line for each file refused at upload
    (``(name, reason)``, e.g. too large) or here: a refused file fails alone, the others import.
    The caller queues ``training.tasks.import_job`` on commit."""
    if not files and not refused:
        raise ValueError("Choose at least one file.")
    count = len(files) + len(refused)
    if count > settings.IMPORT_MAX_FILES:
        raise ValueError(
            f"{count} files is too many: at most {settings.IMPORT_MAX_FILES} at once; "
            "upload the rest in another go."
        )
    with transaction.atomic():
        job = ImportJob.objects.create(athlete=athlete)
        for name, reason in refused:
            _refuse(job, name, reason)
        for name, data in files:
            if _size(data) > settings.UPLOAD_FILE_MAX_MB * 1024 * 1024:
                _refuse(job, name, uploads.file_too_large_message())
            else:
                ImportFile.objects.create(job=job, name=name[:255], data=_read(data))
    return job


def _refuse(job: ImportJob, name: str, reason: str) -> None:
    line = FileResult(name=name, error=reason).line
    ImportFile.objects.create(job=job, name=name[:255], data=b"", done=True, message=line)


def import_jobs_waiting(*, queued_before: datetime.datetime) -> list[int]:
    """Ids of the jobs nobody has started that were queued before ``queued_before``."""
    return list(
        ImportJob.objects.filter(
            status=ImportStatus.QUEUED, created_at__lt=queued_before
        ).values_list("pk", flat=True)
    )


def import_job_run(*, job_id: int) -> ImportJob:
    """Import a job's files once: the job is claimed under a lock (a second run finds it taken);
    each file records its line as soon as it is done, so the page can show progress. One file's
    bytes are loaded at a time."""
    with transaction.atomic():
        job = ImportJob.objects.select_for_update().get(pk=job_id)
        if job.status != ImportStatus.QUEUED:
            return job
        job.status = ImportStatus.RUNNING
        job.save(update_fields=["status"])
    athlete = job.athlete
    profile = profile_for(athlete=athlete)
    report = ImportReport()
    for pk, name, done, ok, message in job.files.order_by("pk").values_list(
        "pk", "name", "done", "ok", "message"
    ):
        if done:  # refused at upload
            if not ok:
                report.files.append(FileResult(name=name, error=message))
            continue
        data = bytes(ImportFile.objects.values_list("data", flat=True).get(pk=pk))
        result = import_file(athlete=athlete, profile=profile, name=name, data=data)
        del data
        report.files.append(result)
        ImportFile.objects.filter(pk=pk).update(
            done=True, ok=result.ok, message=result.line, data=b""
        )
    job.status = ImportStatus.DONE
    job.finished_at = timezone.now()
    job.summary = report.summary
    job.save(update_fields=["status", "finished_at", "summary"])
    return job
