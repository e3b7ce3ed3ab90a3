"""The wellness family's part of ``seed_demo`` (``DEMO`` in ``wellness.tools``, found by
``coach.plan``): the data lives in ``wellness.demo``, which knows no engine; this is the plug."""

from __future__ import annotations

from coach.plan import DemoSeed

from ..demo import seed_wellness_demo


def demo(seed: DemoSeed) -> None:
    """Readiness and supplement logs of the last 7 days and a daily reminder for the athlete."""
    wellness = seed_wellness_demo(athlete=seed.people["athlete"], today=seed.today)
    seed.lines.append(
        f"Wellness: {wellness.readiness} new readiness logs, {wellness.supplements} new "
        "supplement logs (the last 7 days), a daily creatine reminder."
    )
