"""The demo library: realistic workouts a strength-and-endurance coach would share, and a few an
athlete keeps for themselves. Plain data in two modules (``strength``, ``endurance``);
``library.demo`` saves it through the services. This module has the small builders."""

from __future__ import annotations

from typing import Any


def lift(name: str, sets: int, reps: str, load: str, rest: int = 120, **extra: Any) -> dict:
    return {"name": name, "sets": sets, "reps": reps, "load": load, "rest_seconds": rest, **extra}


def cardio(kind: str, minutes: int, modality: str, instructions: str = "") -> dict:
    return {"type": kind, "duration": minutes, "modality": modality, "instructions": instructions}


def workout(
    title: str,
    sport: str,
    minutes: int,
    intensity: str,
    tags: list[str],
    description: str,
    *,
    exercises: list[dict] | None = None,
    cardio_block: dict | None = None,
    warmup: list[str] | None = None,
) -> dict[str, Any]:
    return {
        "title": title,
        "sport": sport,
        "duration_minutes": minutes,
        "intensity": intensity,
        "tags": tags,
        "description": description,
        "template": {
            "exercises": exercises or [],
            "cardio": cardio_block,
            "warmup": warmup or [],
        },
    }


BAR_WARMUP = ["5 min easy bike", "Empty-bar sets, then ramp up in 3-4 jumps"]
RUN_WARMUP = ["10 min easy jog", "Leg swings and 4 × 20 s strides"]
