"""Scenario files: TOML (``tomllib``, no new dependency), one file per seed group.

A file holds a default ``[fixture]`` and a list of ``[[scenario]]``::

    [fixture]                       # what every scenario of the file starts from (see fixtures.py)
    program = "grid"
    weeks = 6

    [[scenario]]
    id = "000-01"
    title = "Modify exercise name"
    source = "seed 000, testing scenario 1"
    fixture = { weeks = 2 }         # optional: merged over the file's fixture

    [[scenario.steps]]
    say = "Change squats to lunges in week 1"        # as an athlete types it (needs a real model)
    command = "rename exercise 1.1.1 to Walking Lunge"  # the offline coach's command form
    [scenario.steps.expect]
    calls = [{ tool = "modify_exercise", args = { exerciseNumber = 1, "updates.name" = { regex = "(?i)lunge" } } }]

    [[scenario.steps]]
    click = "apply"
    expect = { outcome = "applied", program = { "1.1.1.name" = { regex = "(?i)lunge" } } }

Steps (exactly one of):

* ``say`` / ``command``: the athlete sends a message (``say`` in natural language, ``command`` in
  the offline coach's grammar; a scenario runs in one phrasing, see ``Scenario.phrasing_ok``).
* ``model``: the athlete sends ``say`` (or ``command``) but the model's first answer is this
  scripted response (``{ text, calls = [{ tool, arguments | raw }] }``), e.g. a malformed call.
* ``click``: ``"apply"`` or ``"cancel"`` on the open card.
* ``coach``: the coach edits the program meanwhile: ``"remove_exercise"`` or ``"add_exercise"``
  with ``ref = "W.S.E"`` (and ``name``).

``expect`` of a step (every key optional; see ``runner.check_step``): ``calls`` (the writes
queued on the card, or applied at once when their tool needs no Apply: a stated log) or
``any_of`` (alternatives of such lists), ``reads`` (read tools that ran), ``answered`` (a text
reply and no proposal), ``refused`` (nothing proposed; ``{ reply = matcher }`` names the real
bounds), ``reply`` (a matcher of the reply's text), ``pending`` (a card is open),
``outcome`` (of a click), ``program`` (paths into the exported program), ``acknowledged`` (the
model was told of the decision and answered). Every message step also checks that nothing was
written without Apply.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

STEP_KINDS = ("say", "command", "model", "click", "coach")
EXPECT_KEYS = frozenset(
    {
        "calls",
        "any_of",
        "reads",
        "answered",
        "refused",
        "reply",
        "pending",
        "outcome",
        "program",
        "acknowledged",
    }
)
CLICKS = ("apply", "cancel")
COACH_EDITS = ("remove_exercise", "add_exercise")
PHRASINGS = ("command", "natural")


class ScenarioError(ValueError):
    """A scenario file that can't be used; the message names the file, the scenario and why."""


@dataclass(frozen=True)
class CallSpec:
    tool: str
    args: dict[str, Any]
    times: str = "1"  # "1", "2", … or "1+" (one or more calls match it)

    @property
    def minimum(self) -> int:
        return int(self.times.rstrip("+"))

    @property
    def unbounded(self) -> bool:
        return self.times.endswith("+")


@dataclass(frozen=True)
class Step:
    say: str | None = None
    command: str | None = None
    model: dict[str, Any] | None = None
    click: str | None = None
    coach: str | None = None
    ref: str = ""
    name: str = ""
    expect: dict[str, Any] = field(default_factory=dict)

    @property
    def is_message(self) -> bool:
        return self.click is None and self.coach is None

    def text(self, phrasing: str) -> str | None:
        return self.command if phrasing == "command" else self.say

    @property
    def label(self) -> str:
        if self.click:
            return f"click {self.click}"
        if self.coach:
            return f"coach {self.coach} {self.ref}"
        return f"say {self.say or self.command!r}"


@dataclass(frozen=True)
class Scenario:
    id: str
    title: str
    source: str
    file: str
    fixture: dict[str, Any]
    steps: tuple[Step, ...]
    needs_model: bool = False
    notes: str = ""

    def phrasing_ok(self, phrasing: str) -> str:
        """ "" when the scenario can run in ``phrasing``, else why not (the report's skip reason)."""
        if phrasing == "command" and self.needs_model:
            return "needs a real model (natural language only)"
        for step in self.steps:
            if step.is_message and step.text(phrasing) is None:
                return f"no {phrasing} phrasing for step {step.label}"
        return ""


def load_path(path: str | Path) -> list[Scenario]:
    """Every scenario of a file, or of every ``*.toml`` under a directory (sorted by name)."""
    path = Path(path)
    if path.is_dir():
        files = sorted(path.glob("*.toml"))
        if not files:
            raise ScenarioError(f"{path}: no *.toml scenario files here.")
    elif path.is_file():
        files = [path]
    else:
        raise ScenarioError(f"{path}: no such file or directory.")
    scenarios: list[Scenario] = []
    for file in files:
        scenarios.extend(load_file(file))
    seen: set[str] = set()
    for scenario in scenarios:
        if scenario.id in seen:
            raise ScenarioError(f"{scenario.file}: scenario id {scenario.id!r} is used twice.")
        seen.add(scenario.id)
    return scenarios


def load_file(file: Path) -> list[Scenario]:
    try:
        data = tomllib.loads(file.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ScenarioError(f"{file}: not valid TOML ({exc}).") from exc
    base = data.get("fixture", {})
    raw = data.get("scenario", [])
    if not isinstance(base, dict) or not isinstance(raw, list) or not raw:
        raise ScenarioError(f"{file}: needs [[scenario]] entries (and an optional [fixture]).")
    return [_scenario(item, file=file, base=base) for item in raw]


def _scenario(item: dict[str, Any], *, file: Path, base: dict[str, Any]) -> Scenario:
    where = f"{file.name}: scenario {item.get('id', '?')!r}"
    for key in ("id", "title", "steps"):
        if not item.get(key):
            raise ScenarioError(f"{where}: {key!r} is required.")
    unknown = set(item) - {"id", "title", "source", "fixture", "steps", "needs_model", "notes"}
    if unknown:
        raise ScenarioError(f"{where}: unknown keys {sorted(unknown)}.")
    steps = tuple(_step(raw, where=f"{where}, step {n}") for n, raw in enumerate(item["steps"], 1))
    if not any(step.is_message for step in steps):
        raise ScenarioError(f"{where}: needs at least one message step.")
    return Scenario(
        id=str(item["id"]),
        title=str(item["title"]),
        source=str(item.get("source", "")),
        file=file.name,
        fixture={**base, **item.get("fixture", {})},
        steps=steps,
        needs_model=bool(item.get("needs_model", False)),
        notes=str(item.get("notes", "")),
    )


def _step(raw: dict[str, Any], *, where: str) -> Step:
    unknown = set(raw) - {*STEP_KINDS, "ref", "name", "expect"}
    if unknown:
        raise ScenarioError(f"{where}: unknown keys {sorted(unknown)}.")
    message = any(k in raw for k in ("say", "command", "model"))
    kinds = [k for k in ("click", "coach") if k in raw] + (["message"] if message else [])
    if len(kinds) != 1:
        raise ScenarioError(f"{where}: use exactly one of say/command, click, coach.")
    if raw.get("click") is not None and raw["click"] not in CLICKS:
        raise ScenarioError(f"{where}: click is one of {', '.join(CLICKS)}.")
    if raw.get("coach") is not None:
        if raw["coach"] not in COACH_EDITS:
            raise ScenarioError(f"{where}: coach is one of {', '.join(COACH_EDITS)}.")
        if len(str(raw.get("ref", "")).split(".")) != 3:
            raise ScenarioError(f'{where}: a coach edit needs ref = "W.S.E".')
    if message and raw.get("say") is None and raw.get("command") is None:
        raise ScenarioError(f"{where}: a message step needs say or command.")
    if "model" in raw:
        _check_model(raw["model"], where=where)
    expect = dict(raw.get("expect", {}))
    unknown = set(expect) - EXPECT_KEYS
    if unknown:
        raise ScenarioError(
            f"{where}: unknown expectations {sorted(unknown)}; use {sorted(EXPECT_KEYS)}."
        )
    if "calls" in expect:
        expect["calls"] = _calls(expect["calls"], where=where)
    if "any_of" in expect:
        expect["any_of"] = [_calls(option, where=where) for option in expect["any_of"]]
    if "reads" in expect:
        expect["reads"] = _calls(expect["reads"], where=where)
    return Step(
        say=raw.get("say"),
        command=raw.get("command"),
        model=raw.get("model"),
        click=raw.get("click"),
        coach=raw.get("coach"),
        ref=str(raw.get("ref", "")),
        name=str(raw.get("name", "")),
        expect=expect,
    )


def _calls(raw: Any, *, where: str) -> list[CallSpec]:
    if not isinstance(raw, list):
        raise ScenarioError(f"{where}: a list of calls is a TOML array of tables.")
    specs = []
    for call in raw:
        if not isinstance(call, dict) or not call.get("tool"):
            raise ScenarioError(f"{where}: each expected call needs a tool.")
        times = str(call.get("times", "1"))
        if not times.rstrip("+").isdigit() or int(times.rstrip("+")) < 1:
            raise ScenarioError(f'{where}: times is a count such as "1", "2" or "1+".')
        specs.append(CallSpec(tool=call["tool"], args=dict(call.get("args", {})), times=times))
    return specs


def _check_model(model: Any, *, where: str) -> None:
    if not isinstance(model, dict):
        raise ScenarioError(f"{where}: model is a table {{ text, calls }}.")
    for call in model.get("calls", []):
        if not call.get("tool") or ("arguments" in call) == ("raw" in call):
            raise ScenarioError(
                f"{where}: each scripted call needs a tool and either arguments or raw."
            )
