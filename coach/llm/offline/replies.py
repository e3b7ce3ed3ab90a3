"""The suggested replies the app offers the athlete, understood by the offline coach.

Every suggested reply the code can produce (``chat.refusals``, the agent's failure replies and the
offline coach's own) is a chip the athlete may click, so each gets a useful answer here, never
"I didn't understand":

- "Show my program", "Show me my workouts": the week around today (``get_week``, in words), the
  week the system prompt's ``<program_data>`` block names, or week 1 when there is none.
- "Show me the session": the week of the change the coach last proposed (``get_week``).
- "What does this change?": the pending changes of the ``<pending_changes>`` block, in words.
- "Try a different exercise", "Try something different": how to say which one, with the week.
- "Never mind", "Start over": nothing changes; how to discard what is pending.
- "Try again": the athlete's previous message, once more.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from coach.llm.base import Turn
from coach.registry import REGISTRY

from .grammar import Parsed, describe_updates, with_replies

_SHOW_PROGRAM = re.compile(
    r"(show|see|view)( me)? (my|the) (program|plan|workouts?|training|schedule)", re.I
)
_SHOW_SESSION = re.compile(r"(show|see|view)( me)? (the|that|this) (session|workout|day)", re.I)
_WHAT_CHANGES = re.compile(
    r"what (does|will) (this|that|it) change|what changes|explain (this|that)", re.I
)
_DIFFERENT = re.compile(r"try (a different|another) \w+|try something (different|else)", re.I)
_NEVER_MIND = re.compile(r"never ?mind|forget (it|that)|start over|no thanks?|cancel", re.I)
_TRY_AGAIN = re.compile(r"try (it )?again|retry|again", re.I)


_PATTERNS = (_SHOW_PROGRAM, _SHOW_SESSION, _WHAT_CHANGES, _DIFFERENT, _NEVER_MIND, _TRY_AGAIN)


@dataclass
class ReplyAnswer:
    """What the offline coach does with a suggested reply: say ``text``, run ``reads`` (read tool
    calls whose answers are shown), or parse ``retry`` (an earlier message) as a new command."""

    text: str = ""
    reads: list[Parsed] = field(default_factory=list)
    retry: str = ""


def _block(system: str, tag: str) -> str:
    # The block itself stands on its own lines (the prompt's prose also names the tags).
    found = re.findall(rf"^<{tag}>\n(.*?)\n</{tag}>$", system or "", re.S | re.M)
    return found[-1].strip() if found else ""


def _last_week(turns: list[Turn]) -> int | None:
    """The week of the change the coach last proposed (or tried to)."""
    for turn in reversed(turns):
        for call in reversed(turn.tool_calls or []):
            args = call.arguments if isinstance(call.arguments, dict) else {}
            for key in ("weekNumber", "targetWeekNumber", "sourceWeekNumber"):
                if isinstance(args.get(key), int):
                    return args[key]
    return None


def _previous_message(turns: list[Turn]) -> str:
    users = [t for t in turns if t.role == "user" and (t.athlete_text or t.content or "").strip()]
    for turn in reversed(users[:-1]):
        text = (turn.athlete_text if turn.athlete_text is not None else turn.content).strip()
        bare = text.rstrip(".!?").strip()
        if text and not any(p.fullmatch(bare) for p in _PATTERNS):
            return text
    return ""


def _current_week(program: str) -> int | None:
    """The week the summary says today is in (or nearest to), if it says."""
    found = re.search(
        r"^Today \([\d-]+\) is (?:in|outside the program; the nearest) week (?:is week )?(\d+)",
        program,
        re.M,
    )
    return int(found.group(1)) if found else None


def _show_week(number: int) -> ReplyAnswer:
    return ReplyAnswer(reads=[Parsed("get_week", {"weekNumber": number}, f"show week {number}")])


def answer_reply(message: str, *, system: str, turns: list[Turn]) -> ReplyAnswer | None:
    """The answer to ``message`` when it is one of the suggested replies, else None."""
    text = message.strip().rstrip(".!?").strip()
    if _SHOW_PROGRAM.fullmatch(text):
        # The week around today, read like "show week N": in words, not the model's data block.
        return _show_week(_current_week(_block(system, "program_data")) or 1)
    if _SHOW_SESSION.fullmatch(text):
        return _show_week(_last_week(turns) or 1)
    if _WHAT_CHANGES.fullmatch(text):
        return ReplyAnswer(text=_pending_text(_block(system, "pending_changes")))
    if _DIFFERENT.fullmatch(text):
        week = _last_week(turns) or 1
        return ReplyAnswer(
            text=with_replies(
                "Tell me which one by its number: week.session.exercise, e.g. 1.2.3 is week 1, "
                "session 2, exercise 3. To see the numbers, type "
                f'"show week {week}"; then, for example, "rename exercise {week}.1.1 to '
                'Goblet Squat" or "remove exercise '
                f'{week}.1.2".',
                [f"show week {week}", "help"],
            )
        )
    if _NEVER_MIND.fullmatch(text):
        pending = _block(system, "pending_changes")
        waiting = bool(pending) and not pending.startswith("Nothing is pending")
        return ReplyAnswer(
            text=with_replies(
                "No problem, I won't change anything."
                + (
                    " To discard the changes waiting in the preview, press Cancel."
                    if waiting
                    else ""
                ),
                ["Show my program", "help"],
            )
        )
    if _TRY_AGAIN.fullmatch(text):
        previous = _previous_message(turns)
        if previous:
            return ReplyAnswer(retry=previous)
        return ReplyAnswer(
            text=with_replies("There's nothing to try again yet: tell me what to change.", ["help"])
        )
    return None


def _pending_text(pending: str) -> str:
    if not pending or pending.startswith("Nothing is pending"):
        return with_replies(
            "Nothing is waiting for you right now: no change is proposed.",
            ["Show my program", "help"],
        )
    changes = []
    for line in pending.splitlines():
        match = re.match(r"\d+\. \S+ (\w+) (\{.*\})$", line)
        if match:
            changes.append(f"- {_describe_call(match.group(1), match.group(2))}")
    problem = next(
        (line.removeprefix("Problem: ").strip('"') for line in pending.splitlines()
         if line.startswith("Problem: ")),
        "",
    )  # fmt: skip
    text = (
        "The preview card lists each proposed change with its before → after."
        + ("\n" + "\n".join(changes) + "\n" if changes else " ")
        + (f"It can't be applied as it is: {problem} " if problem else "")
        + "Nothing changes until you press Apply Changes; Cancel discards them, and you can edit "
        "or remove each item on the card first."
    )
    return with_replies(text, ["help"])


def _describe_call(name: str, raw: str) -> str:
    """``modify_exercise {"weekNumber": 1, ...}`` → "Change an exercise (week 1, session 1,
    exercise 1): name → Front Squat"."""
    spec = REGISTRY.get(name)
    label = spec.label if spec is not None else name.replace("_", " ")
    try:
        args = json.loads(raw.replace("\\u003c", "<").replace("\\u003e", ">"))
    except ValueError:
        return label
    where = ", ".join(
        f"{word} {args[key]}"
        for key, word in (
            ("weekNumber", "week"),
            ("sessionNumber", "session"),
            ("exerciseNumber", "exercise"),
            ("targetWeekNumber", "to week"),
        )
        if isinstance(args.get(key), int)
    )
    text = label + (f" ({where})" if where else "")
    if isinstance(args.get("updates"), dict):
        text += ": " + describe_updates(args["updates"])
    elif isinstance(args.get("exercise"), dict) or isinstance(args.get("session"), dict):
        text += f": {(args.get('exercise') or args.get('session')).get('name', '')}"
    elif "newPosition" in args:
        text += f": to position {args['newPosition']}"
    return text
