"""The demo program's template: the lifts of each day of a week, and the eight weeks' phases.
Data only; ``programs.demo`` builds the program from it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .models import CardioType


@dataclass(frozen=True)
class Lift:
    """One exercise of the template. ``base`` is the week-1 load in lbs (None: ``fixed_load``);
    accumulation adds ``step`` a week, intensification works heavier with fewer reps."""

    name: str
    sets: int
    reps: str
    heavy_sets: int
    heavy_reps: str
    base: int | None = None
    step: int = 5
    fixed_load: str = ""
    rest: int = 120
    warmups: int = 0
    group: str = ""
    notes: str = ""


@dataclass(frozen=True)
class Day:
    name: str
    lifts: tuple[Lift, ...] = ()
    cardio: dict[str, Any] | None = None
    warmup: tuple[str, ...] = ()
    notes: str = ""
    deload_skip: bool = False  # dropped in deload weeks
    final_skip: bool = False  # dropped in the last week, which closes the block lighter


LOWER_WARMUP = ("5 min easy bike", "Leg swings and hip circles", "Goblet squat × 10")
UPPER_WARMUP = ("5 min easy row", "Band pull-aparts × 20", "Push-ups × 10")

WEEK_TEMPLATE: tuple[Day, ...] = (
    Day(
        "Lower Body A",
        (
            Lift(
                "Back Squat",
                3,
                "5",
                4,
                "3",
                base=225,
                step=10,
                rest=180,
                warmups=3,
                notes="Depth below parallel; belt on the top sets if you use one.",
            ),
            Lift("Romanian Deadlift", 3, "8", 3, "6", base=185, step=10, warmups=1),
            Lift(
                "Walking Lunge",
                3,
                "10 each leg",
                3,
                "8 each leg",
                fixed_load="2 × 40 lbs dumbbells",
                rest=90,
            ),
            Lift("Hanging Leg Raise", 3, "10-12", 3, "12-15", fixed_load="bodyweight", rest=60),
        ),
        warmup=LOWER_WARMUP,
    ),
    Day(
        "Upper Body A",
        (
            Lift(
                "Bench Press",
                3,
                "5",
                4,
                "3",
                base=185,
                step=5,
                rest=180,
                warmups=2,
                notes="Pause the first rep of each set on the chest.",
            ),
            Lift("Barbell Row", 3, "8", 4, "6", base=155, step=5, warmups=1),
            Lift(
                "Incline Dumbbell Press",
                3,
                "10",
                3,
                "8",
                fixed_load="2 × 50 lbs dumbbells",
                rest=60,
                group="A",
                notes="Superset with face pulls; rest after the pair.",
            ),
            Lift("Face Pull", 3, "15", 3, "15", fixed_load="30 lbs", rest=60, group="A"),
        ),
        warmup=UPPER_WARMUP,
    ),
    Day(
        "Zone 2 Cardio",
        cardio={
            "type": CardioType.ZONE2,
            "duration": 45,
            "modality": "Cycling",
            "instructions": "Conversational pace, heart rate 130-145 bpm. Nasal breathing if you can.",
        },
        notes="Cardio only: no lifting today.",
    ),
    Day(
        "Lower Body B",
        (
            Lift(
                "Deadlift",
                3,
                "5",
                4,
                "3",
                base=275,
                step=10,
                rest=180,
                warmups=3,
                notes="Reset each rep; no touch-and-go.",
            ),
            Lift("Front Squat", 3, "6", 3, "4", base=155, step=5, rest=150, warmups=2),
            Lift(
                "Bulgarian Split Squat",
                3,
                "8 each leg",
                3,
                "6 each leg",
                fixed_load="2 × 25 lbs dumbbells",
                rest=90,
            ),
            Lift("Plank", 3, "45 s", 3, "60 s", fixed_load="bodyweight", rest=60),
        ),
        warmup=LOWER_WARMUP,
        final_skip=True,
    ),
    Day(
        "Upper Body B",
        (
            Lift("Overhead Press", 3, "5", 4, "3", base=115, step=5, rest=150, warmups=2),
            Lift(
                "Pull-ups",
                4,
                "6-8",
                4,
                "5",
                fixed_load="bodyweight",
                rest=120,
                notes="Add 10 lbs on a belt once all sets reach 8.",
            ),
            Lift(
                "Dumbbell Curl",
                3,
                "12",
                3,
                "10",
                fixed_load="2 × 25 lbs dumbbells",
                rest=60,
                group="B",
            ),
            Lift("Triceps Pushdown", 3, "12", 3, "10", fixed_load="50 lbs", rest=60, group="B"),
        ),
        warmup=UPPER_WARMUP,
        final_skip=True,
    ),
    Day(
        "Intervals",
        cardio={
            "type": CardioType.INTERVALS,
            "duration": 30,
            "modality": "Rowing",
            "instructions": "10 min easy, then 6 × 2 min hard / 2 min easy, 5 min cool-down.",
        },
        notes="Cardio only. Skip it if the legs are still sore from Thursday.",
        deload_skip=True,
    ),
    Day("Rest", notes="Rest day: an easy walk and 10 minutes of mobility. Sleep 8 hours."),
)

PHASES: tuple[tuple[str, str], ...] = (
    ("Accumulation", "Build volume at moderate loads: straight sets, about RPE 7."),
    ("Accumulation", "Same sessions, a little more weight on the main lifts."),
    ("Accumulation", "Last volume week: the main lifts should feel like RPE 8."),
    ("Deload", "Fewer sets at about 80% of week 1 loads; no intervals. Recover."),
    ("Intensification", "Heavier, fewer reps: main lifts in triples at about RPE 8."),
    ("Intensification", "Add weight to the triples if week 5 moved well."),
    ("Intensification", "Heaviest week of the block: stop each set with one rep in reserve."),
    (
        "Deload",
        "Light week to finish the block: three short sessions, then free days to catch up on "
        "anything missed. Plan the next block with your coach.",
    ),
)
