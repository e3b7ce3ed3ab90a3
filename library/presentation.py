"""How a library workout reads on a page: who it is from, and its template as rows."""

from __future__ import annotations

from typing import Any

from .models import CardioType, LibraryWorkout, Scope
from .schemas import WorkoutTemplate


def owner_label(workout: LibraryWorkout, user: Any) -> str:
    """ "Yours", "From your coach Casey", or "Alex's" (a coach looking at an athlete's)."""
    if workout.owner_id == user.pk:
        return "Yours" + (" · shared with your athletes" if workout.scope == Scope.SHARED else "")
    name = workout.owner.get_short_name() or workout.owner.get_username()
    if workout.scope == Scope.SHARED:
        return f"From coach {name}"
    return f"{name}'s"


def template_rows(workout: LibraryWorkout) -> dict[str, Any]:
    """The template as plain data for the detail page (a damaged one shows nothing, not a 500)."""
    try:
        template = WorkoutTemplate.model_validate(workout.template)
    except ValueError:
        return {"exercises": [], "cardio": None, "warmup": [], "template_broken": True}
    return {
        "exercises": template.exercises,
        "cardio": template.cardio,
        "cardio_type": CardioType(template.cardio.type).label if template.cardio else "",
        "warmup": template.warmup,
        "template_broken": False,
    }
