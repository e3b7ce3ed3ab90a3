"""Tracing the Apply path (``docs/architecture.md``, "The Apply path, measured").

Every Python call and return while ``run`` runs is followed with ``sys.settrace``. Only the
project's own frames count; Django's, the standard library's, third-party and test frames are
transparent (control stays with the project frame beneath them). Each counted frame belongs to a
*room*, one layer unit of the picture in docs/architecture.md, and to a *module*:

========================  ======================================================  ====
room                      modules                                                 rank
========================  ======================================================  ====
chat                      ``chat.*``: the lifecycle (``chat.proposals``) and the   0
                          chat layer it works in (its models, notes, audit log,
                          access, recovery)
engine                    ``coach.*``                                              1
family tools              ``<family>.tools*``: the families' tool declarations     1
family data               a family app's other modules: models, services,          2
                          history, the library's feed
journal                   ``journal.*``                                            3
========================  ======================================================  ====

A room is a layer unit, not an app: a second family's data layer (the library's feed, renumbered
on the journal's signal) is the same room as the program's (the picture's one box of family apps);
the module granularity beside it tells the apps apart. The engine and the tool declarations are
one layer (the picture's middle row: the engine runs the executors it discovered, the tools use
the engine's types); the families' data layer is below them, the journal below all. A *stay* is a run of calls in one room (or module) before a call
enters another: the rooms of the counted call events in order, runs of one room merged (a return
passes control back without starting a stay; the next call from there starts one if it enters
another room). *Climbing back up* is a call into a room of a lower rank number than the room of
the nearest counted caller frame (returns don't count).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

FAMILIES = ("programs", "training", "library", "nutrition", "wellness", "media")
RANKS = {"chat": 0, "engine": 1, "tools": 1, "data": 2, "journal": 3}


def room_of(module: str) -> str | None:
    top, _, rest = module.partition(".")
    if top == "chat":
        return "chat"
    if top == "coach":
        return "engine"
    if top == "journal":
        return "journal"
    if top in FAMILIES:
        return "family tools" if rest == "tools" or rest.startswith("tools.") else "family data"
    return None  # Django, the standard library, third parties, config, the tests


def rank_of(room: str) -> int:
    return RANKS[room.rsplit(" ", 1)[-1]]


def _module(frame: Any) -> str:
    return frame.f_globals.get("__name__", "")


def _counted(frame: Any) -> Any:
    """The nearest frame (this one or beneath) of a counted module, or None."""
    while frame is not None and room_of(_module(frame)) is None:
        frame = frame.f_back
    return frame


@dataclass
class Walk:
    rooms: list[str] = field(default_factory=list)  # the room of each stay, in order
    modules: list[str] = field(default_factory=list)  # the same at module granularity
    steps: list[tuple[str, str]] = field(default_factory=list)  # (module, function) of each stay
    climbs: list[tuple[str, str, str]] = field(default_factory=list)  # (caller, callee, function)

    @property
    def room_count(self) -> int:
        return len(set(self.rooms))

    @property
    def module_count(self) -> int:
        return len(set(self.modules))

    def tracer(self, frame: Any, event: str, arg: Any) -> Callable | None:
        if event != "call":
            return None  # returns don't count; no line events needed
        module = _module(frame)
        room = room_of(module)
        if room is None:
            return None
        caller = _counted(frame.f_back)
        if caller is not None:
            here = room_of(_module(caller))
            if rank_of(room) < rank_of(here):
                self.climbs.append((here, room, frame.f_code.co_name))
        if not self.rooms or self.rooms[-1] != room:
            self.rooms.append(room)
            self.steps.append((module, frame.f_code.co_name))
        if not self.modules or self.modules[-1] != module:
            self.modules.append(module)
        return None


def trace(run: Callable[[], Any]) -> tuple[Walk, Any]:
    walk = Walk()
    sys.settrace(walk.tracer)
    try:
        result = run()
    finally:
        sys.settrace(None)
    return walk, result
