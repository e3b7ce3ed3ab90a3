"""Forms for the coach admin.

Positions are unique among siblings, so the admin must never let Django's model validation or a
plain ``save()`` touch ``position``: a coach who swaps two exercises would otherwise get "Exercise
with this Session and Position already exists" (or an IntegrityError). ``PositionedForm`` keeps the
model field out of the ModelForm (``Meta.exclude``) and offers a plain form field of the same name
instead; the admin reads the requested position from ``cleaned_data`` and applies it through
``programs.services``.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from .models import CardioBlock, Exercise, Session, Week

# Each database constraint in words (Django's default is "Constraint “name” is violated.").
CONSTRAINT_MESSAGES = {
    "week_dates_ordered": "The week's end date must be on or after its start date.",
    "program_version_gte_1": "The program's version must be at least 1.",
    "session_rating_1_to_5": "The rating must be from 1 to 5.",
    "cardio_type_valid": "Choose a cardio type from the list.",
    "cardio_duration_gte_1": "The cardio duration must be at least 1 minute.",
    "exercise_warmup_sets_gte_0": "Warm-up sets can't be negative.",
    "exercise_working_sets_gte_0": "Working sets can't be negative.",
    "exercise_rest_gte_0": "Rest can't be negative.",
}


class ConstraintMessagesMixin:
    """Show a person's message for a violated database constraint instead of its name."""

    def _update_errors(self, errors: ValidationError) -> None:
        super()._update_errors(humane_constraint_errors(errors))  # type: ignore[misc]


def humane_constraint_errors(errors: ValidationError) -> ValidationError:
    def word(error: ValidationError) -> ValidationError:
        message = str(error.message % error.params if error.params else error.message)
        for name, text in CONSTRAINT_MESSAGES.items():
            if f"“{name}”" in message or f'"{name}"' in message:
                return ValidationError(text, code="constraint")
        return error

    if hasattr(errors, "error_dict"):
        return ValidationError(
            {field: [word(e) for e in errs] for field, errs in errors.error_dict.items()}
        )
    return ValidationError([word(e) for e in errors.error_list])


POSITION_HELP = "1-based. Leave empty to put it at the end; duplicates and gaps are renumbered."


class PositionedForm(ConstraintMessagesMixin, forms.ModelForm):
    """A ModelForm for a week, session or exercise whose ``position`` is requested, not saved.

    Subclasses must put ``position`` in ``Meta.exclude`` (not leave it out of ``Meta.fields``): the
    admin passes its own ``fields`` list to ``modelform_factory``, which replaces ``Meta.fields``
    but honours the form's ``Meta.exclude``."""

    position = forms.IntegerField(required=False, min_value=1, help_text=POSITION_HELP)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk is not None:
            self.initial.setdefault("position", self.instance.position)

    def requested_position(self) -> int | None:
        """The position the coach typed, or None for "at the end"."""
        return self.cleaned_data.get("position") if hasattr(self, "cleaned_data") else None


class WarmupField(forms.CharField):
    """A session's warm-up list, edited as one activity per line."""

    widget = forms.Textarea(attrs={"rows": 3, "cols": 60})

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        kwargs.setdefault("help_text", "One warm-up activity per line.")
        super().__init__(**kwargs)

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, list | tuple):
            return "\n".join(str(item) for item in value)
        return value

    def to_python(self, value: Any) -> list[str]:
        if isinstance(value, list | tuple):
            lines = [str(item) for item in value]
        else:
            lines = (super().to_python(value) or "").splitlines()
        items = [line.strip() for line in lines if line.strip()]
        too_long = [item for item in items if len(item) > 200]
        if too_long:
            raise ValidationError(
                "Each warm-up activity must be at most 200 characters; one has %(n)d.",
                code="max_length",
                params={"n": len(too_long[0])},
            )
        return items

    def has_changed(self, initial: Any, data: Any) -> bool:
        return self.to_python(initial or []) != self.to_python(data or "")


class WeekForm(PositionedForm):
    class Meta:
        model = Week
        exclude = ["position"]  # noqa: DJ006 (see PositionedForm)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        start, end = data.get("start_date"), data.get("end_date")
        if start and end and end < start:
            self.add_error(
                "end_date",
                f"The week ends ({end.isoformat()}) before it starts ({start.isoformat()}); "
                "the end date must be on or after the start date.",
            )
        return data


class SessionInlineForm(PositionedForm):
    """A session row under its week (the warm-up list is edited on the session's own page)."""

    class Meta:
        model = Session
        exclude = ["position"]  # noqa: DJ006 (see PositionedForm)


class SessionForm(PositionedForm):
    warmup = WarmupField()

    class Meta:
        model = Session
        exclude = ["position"]  # noqa: DJ006 (see PositionedForm)


class ExerciseForm(PositionedForm):
    class Meta:
        model = Exercise
        exclude = ["position"]  # noqa: DJ006 (see PositionedForm)
        widgets = {
            "notes": forms.Textarea(attrs={"rows": 1, "cols": 30}),
            "reps": forms.TextInput(attrs={"size": 6}),
            "group_label": forms.TextInput(attrs={"size": 3}),
        }


class CardioBlockForm(ConstraintMessagesMixin, forms.ModelForm):
    class Meta:
        model = CardioBlock
        fields = [
            "type",
            "duration",
            "modality",
            "instructions",
            "completed",
            "actual_duration",
            "avg_heart_rate",
            "notes",
        ]
        widgets = {
            "instructions": forms.Textarea(attrs={"rows": 2}),
            "notes": forms.Textarea(attrs={"rows": 2}),
        }
