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

POSITION_HELP = "1-based. Leave empty to put it at the end; duplicates and gaps are renumbered."


class PositionedForm(forms.ModelForm):
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


class CardioBlockForm(forms.ModelForm):
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
