"""Writes of training data: the athlete's profile, activities (with their estimated load), and a
logged workout (the program's SetResults and session through ``programs.workout_log``, plus the
Activity it becomes). Imports of files live in ``training.imports``.

Callers outside a transaction get one: each function is atomic on its own.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from programs import workout_log
from programs.services import program_bump_version, program_lock

from .dedupe import identity_key
from .fitness import estimate_load
from .importers.base import ActivityData, sport_from_text
from .models import Activity, AthleteProfile, LoadMethod, Sport


def profile_for(*, athlete) -> AthleteProfile:
    """The athlete's profile, created with the defaults on first use."""
    profile, _ = AthleteProfile.objects.get_or_create(athlete=athlete)
    return profile


def athlete_today(*, profile: AthleteProfile) -> datetime.date:
    return timezone.now().astimezone(profile.tz).date()


def build_activity(
    *,
    athlete,
    profile: AthleteProfile,
    data: ActivityData,
    source: str = "",
    source_format: str = "",
) -> Activity:
    """An unsaved Activity from an importer's record: aware start, local day, dedupe key, load."""
    tz = profile.tz
    if data.start is None:
        day = data.day
        start = datetime.datetime.combine(day, datetime.time(0), tzinfo=tz)
    else:
        start = data.start if data.start.tzinfo else data.start.replace(tzinfo=tz)
        day = start.astimezone(tz).date()
    duration = data.moving_s or data.elapsed_s or 0
    load, method = estimate_load(
        sport=data.sport,
        duration_s=duration,
        file_load=data.file_load,
        power_w=data.normalized_power_w or data.avg_power_w,
        ftp_w=profile.ftp_w,
        avg_hr=data.avg_hr,
        threshold_hr=profile.threshold_hr,
        rpe=data.rpe,
    )
    key = data.key or identity_key(
        start=start,
        elapsed_s=data.elapsed_s,
        moving_s=data.moving_s,
        distance_m=data.distance_m,
        device_id=data.device_id,
    )
    return Activity(
        athlete=athlete,
        sport=data.sport,
        name=data.name,
        start=start,
        local_date=day,
        moving_s=data.moving_s,
        elapsed_s=data.elapsed_s,
        distance_m=data.distance_m,
        elevation_gain_m=data.elevation_gain_m,
        avg_hr=data.avg_hr or None,  # 0 is "no strap": no value, not zero
        max_hr=data.max_hr or None,
        avg_speed_mps=data.avg_speed_mps,
        avg_power_w=data.avg_power_w,
        normalized_power_w=data.normalized_power_w,
        calories=data.calories,
        rpe=data.rpe,
        notes=data.notes,
        training_load=load,
        load_method=method,
        source_format=source_format,
        source_file=source[:255],
        device_id=data.device_id,
        dedupe_key=key[:200],
        streams=data.streams,
    )


def activity_soft_delete(*, activity: Activity) -> None:
    Activity.all_objects.filter(pk=activity.pk).update(deleted_at=timezone.now())


@dataclass(frozen=True)
class CardioEntry:
    actual_duration: int | None = None
    avg_heart_rate: int | None = None


def workout_complete(
    *,
    athlete,
    session_id: int,
    on: datetime.date,
    sets: list[workout_log.SetEntry] = (),
    cardio: CardioEntry | None = None,
    rating: int | None = None,
    rpe: int | None = None,
    notes: str = "",
    duration_min: int | None = None,
) -> Activity:
    """Log a program session done on ``on``: its sets, its cardio block's actual numbers, the
    session marked complete, and the Activity it becomes (load estimated from heart rate, else
    session RPE, else the sport's default). Logging the same session again updates both.

    Raises ``Session.DoesNotExist`` for a session that isn't the athlete's and
    ``workout_log.WorkoutLogError`` for bad input; nothing is written then."""
    if rpe is not None and not 1 <= rpe <= 10:
        raise workout_log.WorkoutLogError(f"RPE {rpe} is out of range: it goes from 1 to 10.")
    with transaction.atomic():
        session = workout_log.session_of_athlete(athlete=athlete, session_id=session_id)
        program = program_lock(program_id=session.week.program_id)
        workout_log.sets_log(session=session, entries=list(sets), bump=False)
        has_cardio = hasattr(session, "cardio")
        if cardio is not None and has_cardio:
            workout_log.cardio_log(
                session=session,
                actual_duration=cardio.actual_duration,
                avg_heart_rate=cardio.avg_heart_rate,
                bump=False,
            )
        minutes = duration_min
        if minutes is None and cardio is not None:
            minutes = cardio.actual_duration
        if minutes is None and has_cardio:
            minutes = session.cardio.duration
        workout_log.session_complete(
            session=session, on=on, rating=rating, notes=notes, duration_min=minutes, bump=False
        )
        program_bump_version(program=program)
        activity = _activity_for_session(
            athlete=athlete,
            session=session,
            on=on,
            minutes=minutes,
            cardio=cardio,
            rpe=rpe,
            notes=notes,
            has_cardio=has_cardio,
        )
    return activity


def _activity_for_session(*, athlete, session, on, minutes, cardio, rpe, notes, has_cardio):
    profile = profile_for(athlete=athlete)
    sport = sport_from_text(session.cardio.modality) if has_cardio else Sport.STRENGTH
    if has_cardio and sport == Sport.OTHER and not session.cardio.modality:
        sport = Sport.RUNNING
    avg_hr = cardio.avg_heart_rate if cardio else None
    seconds = (minutes or 0) * 60
    load, method = estimate_load(
        sport=sport,
        duration_s=seconds,
        avg_hr=avg_hr,
        threshold_hr=profile.threshold_hr,
        rpe=rpe,
    )
    start = datetime.datetime.combine(on, datetime.time(12), tzinfo=profile.tz)
    activity, _ = Activity.all_objects.update_or_create(
        athlete=athlete,
        dedupe_key=f"session:{session.pk}",
        defaults={
            "sport": sport,
            "name": session.name[:200],
            "start": start,
            "local_date": on,
            "moving_s": seconds or None,
            "elapsed_s": seconds or None,
            "avg_hr": avg_hr,
            "rpe": rpe,
            "notes": notes,
            "training_load": load,
            "load_method": method or LoadMethod.ESTIMATE,
            "session": session,
            "source_format": "logged",
            "deleted_at": None,
        },
    )
    return activity
