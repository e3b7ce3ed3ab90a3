"""Resolving every placeholder of a set of scenario files on a given day (the eval's files name
dates relative to today, so a file is checked on each day of the week)."""

from __future__ import annotations

import dataclasses
import datetime

from chat.evals.fixtures import build
from chat.evals.runner import _render
from chat.evals.templates import Context


def resolve_every_placeholder(scenarios: list, today: datetime.date) -> None:
    """Build each file's fixture for ``today`` and render every message and expectation of its
    scenarios; an unknown placeholder, a date with no session or an unknown workout raises."""
    files: dict[str, list] = {}
    for scenario in scenarios:
        files.setdefault(scenario.file, []).append(scenario)
    for in_file in files.values():
        # Training data adds activities, not sessions: leave it out here to keep this fast.
        fixture = {**in_file[0].fixture, "training": False}
        world = build(fixture, today=today)
        ctx = Context(today=today, program=world.program, athlete=world.athlete)
        for scenario in in_file:
            assert {**scenario.fixture, "training": False} == fixture
            for step in scenario.steps:
                for phrasing in ("command", "natural"):
                    if step.text(phrasing):
                        ctx.render(step.text(phrasing))
                for value in dataclasses.asdict(step)["expect"].values():
                    _render(ctx, value)
