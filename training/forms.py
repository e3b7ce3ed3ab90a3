"""Forms of the training pages; the workout log's set rows are ``SetLogForm``."""

from __future__ import annotations

from django import forms

from programs.workout_log import MAX_LOAD, MAX_REPS, SetEntry

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


class SetLogForm(forms.Form):
    """The set rows of the workout log: ``set-<exercise>-<n>-reps|load|rpe`` for each planned set
    of each exercise, ``n`` counting warm-ups first as the stored ``set_number`` does.

    A Django form so that a bad field keeps everything typed: the page re-renders the bound form,
    the bad input marked (``aria-invalid``, its message beside it), nothing saved. Rows are
    labelled as the athlete counts them: "Warm-up 1".."Warm-up k", then "Set 1".."Set N"."""

    def __init__(self, data=None, *, exercises: list, logged: dict | None = None) -> None:
        super().__init__(data)
        self.exercises = exercises
        self.layout: list[dict] = []
        logged = logged or {}
        for exercise in exercises:
            sets = []
            for number in range(1, exercise.warmup_sets + exercise.working_sets + 1):
                warmup = number <= exercise.warmup_sets
                label = f"Warm-up {number}" if warmup else f"Set {number - exercise.warmup_sets}"
                names = self._add_set(
                    exercise, number, label, warmup, logged.get((exercise.pk, number))
                )
                sets.append({"label": label, "warmup": warmup, "names": names})
            self.layout.append({"exercise": exercise, "sets": sets})

    def _add_set(self, exercise, number: int, label: str, warmup: bool, logged) -> dict[str, str]:
        prefix = f"set-{exercise.pk}-{number}-"
        named = f"{exercise.name} {label.lower()}"
        self.fields[prefix + "reps"] = forms.IntegerField(
            required=False,
            min_value=0,
            max_value=MAX_REPS,
            label=f"{named} reps",
            initial=logged.reps if logged else None,
            error_messages={
                "invalid": "Reps must be a whole number.",
                "min_value": f"Reps go from 0 to {MAX_REPS}.",
                "max_value": f"Reps go from 0 to {MAX_REPS}.",
            },
            widget=forms.TextInput(
                attrs={
                    "inputmode": "numeric",
                    "placeholder": "reps" if warmup else exercise.reps,
                    "aria-label": f"{named} reps",
                }
            ),
        )
        self.fields[prefix + "load"] = forms.CharField(
            required=False,
            max_length=MAX_LOAD,
            label=f"{named} load",
            initial=logged.load if logged else "",
            error_messages={"max_length": f"A load is at most {MAX_LOAD} characters."},
            widget=forms.TextInput(attrs={"placeholder": "load", "aria-label": f"{named} load"}),
        )
        self.fields[prefix + "rpe"] = forms.DecimalField(
            required=False,
            min_value=1,
            max_value=10,
            max_digits=4,
            label=f"{named} RPE",
            initial=logged.rpe if logged else None,
            error_messages={
                "invalid": "RPE must be a number from 1 to 10.",
                "min_value": "RPE goes from 1 to 10.",
                "max_value": "RPE goes from 1 to 10.",
                "max_digits": "RPE must be a number from 1 to 10.",
            },
            widget=forms.TextInput(
                attrs={"inputmode": "decimal", "placeholder": "RPE", "aria-label": f"{named} RPE"}
            ),
        )
        return {part: prefix + part for part in ("reps", "load", "rpe")}

    def rows(self) -> list[dict]:
        """What the page renders: each exercise with its sets' label and bound fields."""
        return [
            {
                "exercise": row["exercise"],
                "sets": [
                    {
                        "label": s["label"],
                        "warmup": s["warmup"],
                        "fields": [self[s["names"][part]] for part in ("reps", "load", "rpe")],
                    }
                    for s in row["sets"]
                ],
            }
            for row in self.layout
        ]

    def entries(self) -> list[SetEntry]:
        """The typed sets (empty rows skipped) of a valid form."""
        data = self.cleaned_data
        found = []
        for row in self.layout:
            exercise = row["exercise"]
            for number, s in enumerate(row["sets"], start=1):
                reps, load, rpe = (data[s["names"][part]] for part in ("reps", "load", "rpe"))
                load = load.strip()
                if reps is None and not load and rpe is None:
                    continue
                found.append(
                    SetEntry(
                        exercise_id=exercise.pk,
                        set_number=number,
                        reps=reps,
                        load=load,
                        rpe=rpe,
                        is_warmup=s["warmup"],
                    )
                )
        return found
