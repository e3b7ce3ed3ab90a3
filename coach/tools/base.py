"""What every tool family shares: the ToolSpec and ToolError types, the state-layer error, and
the small text helpers of summaries and preview details (the program family's lookups by position
and descriptions are in ``programs.tools.lookups``).

A tool's ``execute(*, ctx, args)`` gets a ``ToolContext`` (the athlete, the program, the acting
user; never a request) and its validated arguments. It validates the state first and only then
writes through its data app's services; when the state is wrong it raises ``ToolStateError``
before writing anything. It returns an ``Outcome`` (one summary line and the preview details), or,
for a change to some fields of one object, a ``FieldUpdate``: what it decided, as data (the object,
each field's old and new value, the object described before and after), which the engine words
once, after the executor has returned (``worded``): the summary for the model, the words for the
athlete and the preview's detail. Such an executor never calls back into the engine to word its
result, and its write is its last step.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple

from pydantic import BaseModel

from ..field_words import field_words
from ..render import Quote, plain
from ..render import quote as render_quote
from ..vocabulary import Phrase, plural, spelled

QUOTE_LIMIT = 80


@dataclass(frozen=True)
class ToolContext:
    """Who a tool acts for: the athlete whose data it reads or changes, the program the
    conversation is about (None for athlete-scoped tools without one), and the acting user (the
    athlete, or the coach deciding a review).

    ``program_id`` is the program's key, set once when the context is made (a value the tools
    read, not a call into the engine on each use); without a program, reading it is the tool's
    ``NOT_FOUND`` ("The athlete has no program yet.")."""

    athlete: Any
    program: (
        Any  # the family's program (programs.models.Program) or None: the engine names no family
    )
    user: Any = None
    program_id: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.program is not None:
            object.__setattr__(self, "program_id", self.program.pk)

    def __getattr__(self, name: str) -> Any:
        # Reached only for an attribute that is not set: ``program_id`` without a program.
        if name == "program_id":
            raise ToolStateError("NOT_FOUND", "The athlete has no program yet.")
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    @classmethod
    def for_program(cls, program: Any, *, user: Any = None) -> ToolContext:
        """The context of a program's own athlete (the command-line tools and benchmarks)."""
        return cls(athlete=program.athlete, program=program, user=user)


@dataclass
class ToolError:
    """One problem with one tool call: ``{code, message, field}``, the message written for a person.

    Codes: VALIDATION_ERROR, PARSE_ERROR, UNKNOWN_TOOL, NOT_FOUND, PERMISSION_DENIED, CONFLICT,
    STALE, and EXECUTION_ERROR for an unexpected database failure while executing a valid call."""

    code: str
    message: str
    field: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "field": self.field}


class ToolStateError(Exception):
    """The call is well-formed but does not fit the program as it is (state layer)."""

    def __init__(self, code: str, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.error = ToolError(code=code, message=message, field=field)


@dataclass
class Outcome:
    """What a call did: one summary line, the preview details, and warnings for the card (e.g.
    a session moved outside its week's dates)."""

    summary: str
    details: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    # The result in words for a person (a read the offline coach shows the athlete): no JSON, no
    # argument names, numbers unquoted. The model reads ``summary``; empty: it reads as words.
    spoken: str = ""


class FieldUpdate(NamedTuple):
    """A change to some fields of one object, as its executor decided it: plain data the engine
    words after the executor returns (``worded``). A value, not an object of the engine's: making
    it runs no code of the engine's, so an executor that returns it never enters the engine.

    ``changes`` holds every field the call sent as ``(argument name, old value, new value)``, the
    unchanged ones too (the wording leaves them out). ``before`` and ``after`` describe the object
    as the preview shows it (a ``Phrase``: its counts are spelled by the engine); ``after`` is the
    object as the write leaves it, described from the validated values before the write.
    ``values`` says how the summary reads: True shows each field's old → new value (short values:
    an exercise's), False names the fields changed (long ones: a session's notes, a week's dates),
    "renamed to" when ``name`` is among them."""

    where: str  # "Week 1, Session 2, Exercise 3"
    target: str  # the preview's target: "Week 1, Session 2, Exercise 3: Squat"
    name: str | None  # the object's name before the change (None: it has none, a week)
    before: Phrase
    after: Phrase
    changes: list[tuple[str, Any, Any]]
    values: bool = False


Sensitivity = Literal["low", "medium", "high", "critical"]
REVIEWED_SENSITIVITIES = ("high", "critical")  # wait for the coach when review mode is on


@dataclass(frozen=True)
class ToolSpec:
    """One tool: what the model reads about it, how its arguments are checked, how it runs, and
    its policy (seed 004): ``category`` and ``display_name`` for people, ``sensitivity`` (high and
    critical changes wait for the coach in review mode), ``requires_confirmation`` (the change
    waits for the athlete's Apply; a tool without it may be written at once when its guardrails
    pass), and ``safety_rules``, listed in the system prompt and each enforced by the tool's own
    state checks."""

    name: str
    description: str
    args_model: type[BaseModel]
    kind: Literal["read", "write"]
    requires_confirmation: bool
    sensitivity: Sensitivity
    execute: Callable[..., Outcome | FieldUpdate]  # a FieldUpdate is worded by the engine
    # What a write call changes, as a person names it ("Week 2, Session 1"): two calls of one batch
    # with the same target get a warning on the card (seed 000, Phase 7); "" conflicts with nothing.
    # Tools of different families that change the same thing name it alike.
    target: Callable[[BaseModel], str]
    category: str = ""  # the tool's family (required: the registry refuses a tool without one)
    display_name: str = ""
    safety_rules: tuple[str, ...] = ()
    intent_words: tuple[str, ...] = ()
    # Given the call's arguments, which words may follow an intent word as its object, so that
    # the statement is about what the call logs (``coach.guardrails``): "I took my aspirin" states
    # log_medication(aspirin), "I had a headache" doesn't. None: any intent word states it.
    intent_objects: Callable[[dict[str, Any]], Callable[[str], bool]] | None = None
    # False for athlete-scoped families (nutrition): they work without a program, and a program
    # change since the preview doesn't make their batch stale (their own state is re-checked when
    # applied: a deleted or changed object fails that call cleanly).
    needs_program: bool = True
    # Sentences the offline coach understands as this call, with ``{slot}`` for an argument:
    # "call me {name}" → {"name": "..."} (a number is passed as a number), compiled into the one
    # grammar of everyday sentences (``coach.llm.offline.phrases`` and ``understand``).
    phrases: tuple[str, ...] = ()
    # A log of what the athlete states (a dose, a mood): told and undone as a log ("the log is
    # removed"), not as a change to the program (``chat.notes``, the offline coach).
    logs: bool = False
    # Seed 004's crisis path: given a call's arguments, the deployment's fixed reply when the call
    # reports a crisis ("" when it doesn't). Such a call is the response's only one
    # (``coach.guardrails``), and the athlete reads this reply instead of the model's words.
    crisis: Callable[[dict[str, Any]], str] | None = None
    # What the athlete is asked to say when the call was refused as not stated by them
    # (``coach.guardrails``' NOT_STATED), e.g. 'for example "I took 5 g of creatine this
    # morning"'; empty: "what happened".
    stated_example: str = ""
    # Given a successful call's arguments, the link shown under the reply (``{"label", "url"}``,
    # ``coach.links.page_links``), or None; a tool without it shows none.
    page_link: Callable[[dict[str, Any]], dict[str, str] | None] | None = None
    # What the reply's bubble says while this read runs, in the athlete's words ("Looking at your
    # sleep…"), or a function of the call's arguments giving it; empty: "Looking that up…"
    # (``chat.stream.looking_at``).
    looking_at: str | Callable[[dict[str, Any]], str] = ""

    @property
    def label(self) -> str:
        return self.display_name or self.name.replace("_", " ").capitalize()

    @property
    def needs_review(self) -> bool:
        return self.sensitivity in REVIEWED_SENSITIVITIES


def no_target(args: BaseModel) -> str:
    """Additions never conflict with anything (seed 000, Phase 7)."""
    return ""


# --- text ---------------------------------------------------------------------------------------


def quote(text: Any) -> str:
    """User-written text in a summary: ``coach.render.quote`` with the summaries' shorter bound."""
    return render_quote(text, limit=QUOTE_LIMIT)


def jsonable(value: Any) -> Any:
    if isinstance(value, datetime.date | datetime.datetime):
        return value.isoformat()
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    return value


def field_changes(changes: list[tuple[str, Any, Any]]) -> list[dict[str, Any]]:
    """``[{field, oldValue, newValue}]`` (the argument names, camelCase) of the ``(field, old,
    new)`` changes whose value really changes."""
    return [
        {"field": name, "oldValue": jsonable(old), "newValue": jsonable(new)}
        for name, old, new in changes
        if jsonable(old) != jsonable(new)
    ]


def changes_text(fields: list[dict[str, Any]]) -> str:
    """``field_changes`` for the model: ``workingSets 3 → 4, name "Squat" → "Front Squat"``
    (user-written text quoted and bounded, booleans lower-case)."""
    return ", ".join(
        f"{f['field']} {_short(f['oldValue'])} → {_short(f['newValue'])}" for f in fields
    )


def changes_spoken(fields: list[dict[str, Any]]) -> str:
    """``field_changes`` for a person (``Outcome.spoken``): the fields in words, the values as
    written: "number of sets 3 → 4, group none → A" (no quotes; a boolean is yes or no)."""
    return ", ".join(
        f"{field_words(f['field'])} {_plain(f['oldValue'])} → {_plain(f['newValue'])}"
        for f in fields
    )


def worded(result: Outcome | FieldUpdate) -> Outcome:
    """An executor's result as the engine reports it: an ``Outcome`` as it is; a ``FieldUpdate``
    worded here, the one place its words are made: "Week 1, Session 1, Exercise 1: "Squat"
    renamed to "Goblet Squat"." for the model, the fields in words for the athlete, and the
    preview's detail (before and after spelled, the fields that really change)."""
    if isinstance(result, Outcome):
        return result
    where, name = result.where, result.name
    fields = field_changes(result.changes)
    named = "" if name is None else f"{quote(name)} "
    if not fields:
        summary, spoken = f"{where}: {named}unchanged (the values were already set).", ""
    elif not result.values:
        names = [f["field"] for f in fields]
        new_name = next((f["newValue"] for f in fields if f["field"] == "name"), name or "")
        summary = _changed(where, new_name, names, quote, str)
        spoken = _changed(where, new_name, names, plain, field_words)
    else:
        if len(fields) == 1 and fields[0]["field"] == "name":
            summary = f"{where}: {named}renamed to {quote(fields[0]['newValue'])}."
        else:
            summary = f"{where} {quote(name)}: {changes_text(fields)}."
        spoken = f"{where} ({name}): {changes_spoken(fields)}."
    change = detail(
        type="modify", target=result.target, before=result.before, after=result.after, fields=fields
    )
    return Outcome(summary=summary, spoken=spoken, details=[change])


def _changed(where: str, name: str, names: list[str], q: Quote, word: Callable[[str], str]) -> str:
    """ "Week 1, Session 2: changed scheduledDate, notes." (``word`` names each field)."""
    others = [word(n) for n in names if n != "name"]
    if "name" not in names:
        return f"{where}: changed {', '.join(others)}."
    also = f"; also changed {', '.join(others)}" if others else ""
    return f"{where}: renamed to {q(name)}{also}."


def _short(value: Any) -> str:
    if isinstance(value, str):
        return quote(value)
    return str(value).lower() if isinstance(value, bool) else str(value)


def _plain(value: Any) -> str:
    if value is None or value == "":
        return "none"
    return ("yes" if value else "no") if isinstance(value, bool) else str(value)


def detail(
    *,
    type: str,
    target: str,
    before: Phrase | None = None,
    after: Phrase | None = None,
    fields: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """One change of the preview; ``before`` and ``after`` are spelled (``spelled``)."""
    return {
        "type": type,
        "target": target,
        "before": None if before is None else spelled(before),
        "after": None if after is None else spelled(after),
        "fields": fields or [],
    }


# --- positions ----------------------------------------------------------------------------------


def insert_position(position: int | str, *, count: int, where: str, noun: str) -> int:
    """Turn ``position`` (1-based or "end") into a concrete position in 1..count+1."""
    if position == "end":
        return count + 1
    assert isinstance(position, int)
    if position > count + 1:
        raise ToolStateError(
            "VALIDATION_ERROR",
            f'position must be from 1 to {count + 1} or "end": {where} has '
            f"{'no ' + noun + 's' if count == 0 else plural(count, noun)}.",
            "position",
        )
    return position
