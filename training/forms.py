"""Forms of the training pages; the workout log's set rows are read by ``log_entries``."""

from __future__ import annotations

from django import forms

from programs.workout_log import SetEntry, WorkoutLogError

from .models import AthleteProfile


class ProfileForm(forms.ModelForm):
    class Meta:
        model = AthleteProfile
        fields = [
            "threshold_hr",
            "max_hr",
            "ftp_w",
            "threshold_pace_s_per_km",
            "weight_unit",
            "distance_unit",
            "time_zone",
            "ctl_days",
            "atl_days",
        ]
        labels = {
            "threshold_hr": "Threshold heart rate (bpm)",
            "max_hr": "Max heart rate (bpm)",
            "ftp_w": "FTP (W)",
            "threshold_pace_s_per_km": "Threshold pace (seconds per km)",
            "ctl_days": "Fitness time constant (days)",
            "atl_days": "Fatigue time constant (days)",
        }


class CompleteForm(forms.Form):
    rating = forms.IntegerField(min_value=1, max_value=5, required=False)
    rpe = forms.IntegerField(min_value=1, max_value=10, required=False, label="Session RPE")
    duration_min = forms.IntegerField(
        min_value=1, max_value=1440, required=False, label="Duration (min)"
    )
    actual_duration = forms.IntegerField(
        min_value=1, max_value=1440, required=False, label="Cardio minutes"
    )
    avg_heart_rate = forms.IntegerField(
        min_value=30, max_value=240, required=False, label="Average heart rate"
    )
    notes = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))


def _int(value: str, label: str) -> int | None:
    value = (value or "").strip()
    if not value:
        return None
    try:
        return int(value)
    except ValueError as exc:
        raise WorkoutLogError(f"{label}: {value!r} is not a whole number.") from exc


def log_entries(data, exercises: list, max_sets: int) -> list[SetEntry]:
    """Rows ``set-<exercise>-<n>-reps|load|rpe`` of the posted form; empty rows are skipped; the
    first ``warmup_sets`` rows of an exercise are its warm-up sets."""
    entries = []
    for exercise in exercises:
        exercise_id = exercise.pk
        for number in range(1, max_sets + 1):
            prefix = f"set-{exercise_id}-{number}-"
            reps = data.get(prefix + "reps", "")
            load = data.get(prefix + "load", "")
            rpe = data.get(prefix + "rpe", "")
            if not (reps.strip() or load.strip() or rpe.strip()):
                continue
            entries.append(
                SetEntry(
                    exercise_id=exercise_id,
                    set_number=number,
                    reps=_int(reps, f"set {number} reps"),
                    load=load.strip(),
                    rpe=rpe.strip() or None,
                    is_warmup=number <= exercise.warmup_sets,
                )
            )
    return entries
