"""The editor's rows as HTML, built in Python: a 16-week program has some 500 exercise rows.
Django's template engine spent about 1 s on them (a variable lookup walks the whole context stack
of the admin page, through nested loops and includes) and ``format_html`` still half of that (a
lazy ``conditional_escape`` per value); f-strings with the standard library's ``html.escape``
(quotes included) build the same markup in milliseconds. Every value goes through ``_e``, so user
text stays text.

The same functions with no object give the blank rows the page clones for "+ Add".
"""

from __future__ import annotations

from html import escape
from typing import Any

from django.utils.safestring import SafeString, mark_safe

from coach.vocabulary import DAY_NAMES

from ..models import Exercise, Session, Week


def _e(value: Any) -> str:
    return escape("" if value is None else str(value), quote=True)


def _date(value: Any) -> str:
    return value.isoformat() if value else ""


def _row_attrs(kind: str, obj: Any, extra: str = "") -> str:
    if obj is None:
        return f'data-kind="{kind}" data-key=""'
    return f'data-kind="{kind}" data-key="{kind}-{obj.pk}" data-id="{obj.pk}"{extra}'


def _actions(what: str) -> str:
    return (
        '<span class="ed-row-actions">'
        f'<button type="button" class="ed-small" data-action="copy" title="Copy this {what}">'
        "Copy</button>"
        f'<button type="button" class="ed-small ed-danger" data-action="remove" '
        f'title="Remove this {what}">✕</button></span>'
    )


def _exercise(e: Exercise | None) -> str:
    logged = getattr(e, "logged", 0) if e is not None else 0
    extra = f' data-logged="{int(logged)}"' if logged else ""
    return (
        f'<li class="ed-exercise ed-row" {_row_attrs("exercise", e, extra)}>'
        '<span class="ed-handle" title="Drag to move" aria-hidden="true">⠿</span>'
        '<input type="text" class="ed-name" data-field="name" '
        f'value="{_e(e.name if e else "")}" aria-label="Exercise" placeholder="Exercise" '
        'maxlength="200" required>'
        '<label class="ed-num">Sets <input type="number" data-field="working_sets" '
        f'value="{_e(e.working_sets if e else 3)}" min="0" max="50" required></label>'
        '<label class="ed-num">Reps <input type="text" data-field="reps" '
        f'value="{_e(e.reps if e else "8")}" maxlength="50" required></label>'
        '<label class="ed-load">Load <input type="text" data-field="target_load" '
        f'value="{_e(e.target_load if e else "bodyweight")}" maxlength="100" required></label>'
        '<label class="ed-num">Rest <input type="number" data-field="rest_seconds" '
        f'value="{_e(e.rest_seconds if e else 120)}" min="0" max="3600"></label>'
        '<details class="ed-more"><summary title="More fields">…</summary>'
        '<label class="ed-num">Warm-up sets <input type="number" data-field="warmup_sets" '
        f'value="{_e(e.warmup_sets if e else 0)}" min="0" max="20"></label>'
        '<label class="ed-num">Group <input type="text" data-field="group_label" '
        f'value="{_e(e.group_label if e else "")}" maxlength="20"></label>'
        '<label class="ed-wide">Notes <input type="text" data-field="notes" '
        f'value="{_e(e.notes if e else "")}" maxlength="2000"></label></details>'
        f"{_actions('exercise')}</li>"
    )


def _days(current: str) -> str:
    options = ['<option value="">(no day)</option>']
    for day in DAY_NAMES:
        selected = " selected" if day == current else ""
        options.append(f"<option{selected}>{day}</option>")
    return "".join(options)


def _session(s: Session | None) -> str:
    cardio = getattr(s, "cardio", None) if s is not None else None
    exercises = "".join(_exercise(e) for e in s.exercises.all()) if s is not None else ""
    cardio_html = f'<p class="ed-cardio">Cardio: {_e(cardio)}</p>' if cardio else ""
    return (
        f'<article class="ed-session ed-row" {_row_attrs("session", s)}>'
        '<header class="ed-session-head">'
        f'<span class="ed-title">S<span class="ed-number">{_e(s.position if s else "")}</span></span>'
        f'<input type="text" data-field="name" value="{_e(s.name if s else "")}" '
        'aria-label="Session name" placeholder="Session name" maxlength="200" required>'
        f'<select data-field="day_of_week" aria-label="Day">{_days(s.day_of_week if s else "")}'
        "</select>"
        '<input type="date" data-field="scheduled_date" '
        f'value="{_e(_date(s.scheduled_date) if s else "")}" aria-label="Date">'
        f"{_actions('session')}</header>"
        '<input type="text" class="ed-notes" data-field="notes" '
        f'value="{_e(s.notes if s else "")}" aria-label="Session notes" placeholder="Notes" '
        f'maxlength="2000">{cardio_html}'
        f'<ol class="ed-exercises">{exercises}</ol>'
        '<button type="button" class="ed-small ed-add" data-action="add-exercise">+ Exercise'
        "</button></article>"
    )


def _week(w: Week | None) -> str:
    sessions = "".join(_session(s) for s in w.sessions.all()) if w is not None else _session(None)
    return (
        f'<section class="ed-week ed-row" {_row_attrs("week", w)}>'
        '<header class="ed-week-head">'
        f'<h2 class="ed-title">Week <span class="ed-number">{_e(w.position if w else "")}</span>'
        "</h2>"
        f'<label>Phase <input type="text" data-field="phase" value="{_e(w.phase if w else "")}" '
        'maxlength="100" required></label>'
        '<label>Start <input type="date" data-field="start_date" '
        f'value="{_e(_date(w.start_date) if w else "")}" required></label>'
        '<label>End <input type="date" data-field="end_date" '
        f'value="{_e(_date(w.end_date) if w else "")}" required></label>'
        '<label class="ed-wide">Description <input type="text" data-field="description" '
        f'value="{_e(w.description if w else "")}" maxlength="2000"></label>'
        f"{_actions('week')}</header>"
        f'<div class="ed-sessions">{sessions}</div>'
        '<button type="button" class="ed-small ed-add" data-action="add-session">+ Add a session'
        "</button></section>"
    )


def exercise_html(exercise: Exercise | None) -> SafeString:
    return mark_safe(_exercise(exercise))  # every value escaped by _e


def session_html(session: Session | None) -> SafeString:
    return mark_safe(_session(session))  # every value escaped by _e


def week_html(week: Week | None) -> SafeString:
    return mark_safe(_week(week))  # every value escaped by _e


def weeks_html(weeks: list[Week]) -> SafeString:
    return mark_safe("".join(_week(w) for w in weeks))  # every value escaped by _e
