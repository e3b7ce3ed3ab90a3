"""The demo library's data; see ``builders`` for the shapes."""

from .endurance import ATHLETE_WORKOUTS, ENDURANCE_WORKOUTS
from .strength import STRENGTH_WORKOUTS

COACH_WORKOUTS = STRENGTH_WORKOUTS + ENDURANCE_WORKOUTS

__all__ = ["ATHLETE_WORKOUTS", "COACH_WORKOUTS"]
