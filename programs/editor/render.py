"""The editor's rows as HTML, built in Python: a 16-week program has some 500 exercise rows, and
Django's template engine spent about 1 s on them (a variable lookup walks the whole context stack
of the admin page, nested loops and includes); this builds the same markup in tens of
milliseconds. Every value goes through ``escape`` (``format_html``), so user text stays text.

The same functions with no object give the blank rows the page clones for "+ Add".
"""

from __future__ import annotations

from typing import Any

from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from coach.vocabulary import DAY_NAMES

from ..models import Exercise, Session, Week


def _date(value: Any) -> str:
    return value.isoformat() if value else ""


def _row_attrs(kind: str, obj: Any, extra: str = "") -> SafeString:
    if obj is None:
        return format_html('data-kind="{}" data-key=""', kind)
    return format_html(
        'data-kind="{}" data-key="{}-{}" data-id="{}"{}',
        kind,
        kind,
        obj.pk,
        obj.pk,
        mark_safe(extra),
    )


def _actions(what: str) -> str:
    return (
        '<span class="ed-row-actions">'
        f'<button type="button" class="ed-small" data-action="copy" title="Copy this {what}">Copy</button>'
        f'<button type="button" class="ed-small ed-danger" data-action="remove" '
        f'title="Remove this {what}">✕</button></span>'
    )


def exercise_html(exercise: Exercise | None) -> SafeString:
    e = exercise
    logged = getattr(e, "logged", 0) if e is not None else 0
    extra = f' data-logged="{int(logged)}"' if logged else ""
    return format_html(
        '<li class="ed-exercise ed-row" {attrs}>'
        '<span class="ed-handle" title="Drag to move" aria-hidden="true">⠿</span>'
        '<input type="text" class="ed-name" data-field="name" value="{name}" aria-label="Exercise" '
        'placeholder="Exercise" maxlength="200" required>'
        '<label class="ed-num">Sets <input type="number" data-field="working_sets" value="{sets}" '
        'min="0" max="50" required></label>'
        '<label class="ed-num">Reps <input type="text" data-field="reps" value="{reps}" '
        'maxlength="50" required></label>'
        '<label class="ed-load">Load <input type="text" data-field="target_load" value="{load}" '
        'maxlength="100" required></label>'
        '<label class="ed-num">Rest <input type="number" data-field="rest_seconds" value="{rest}" '
        'min="0" max="3600"></label>'
        '<details class="ed-more"><summary title="More fields">…</summary>'
        '<label class="ed-num">Warm-up sets <input type="number" data-field="warmup_sets" '
        'value="{warmup}" min="0" max="20"></label>'
        '<label class="ed-num">Group <input type="text" data-field="group_label" value="{group}" '
        'maxlength="20"></label>'
        '<label class="ed-wide">Notes <input type="text" data-field="notes" value="{notes}" '
        'maxlength="2000"></label></details>{actions}</li>',
        attrs=_row_attrs("exercise", e, extra),
        name=e.name if e else "",
        sets=e.working_sets if e else 3,
        reps=e.reps if e else "8",
        load=e.target_load if e else "bodyweight",
        rest=e.rest_seconds if e else 120,
        warmup=e.warmup_sets if e else 0,
        group=e.group_label if e else "",
        notes=e.notes if e else "",
        actions=mark_safe(_actions("exercise")),
    )


def _days(current: str) -> SafeString:
    options = ['<option value="">(no day)</option>']
    for day in DAY_NAMES:
        selected = " selected" if day == current else ""
        options.append(f"<option{selected}>{day}</option>")
    return mark_safe("".join(options))


def session_html(session: Session | None) -> SafeString:
    s = session
    cardio = getattr(s, "cardio", None) if s is not None else None
    exercises = "".join(exercise_html(e) for e in s.exercises.all()) if s is not None else ""
    return format_html(
        '<article class="ed-session ed-row" {attrs}><header class="ed-session-head">'
        '<span class="ed-title">S<span class="ed-number">{position}</span></span>'
        '<input type="text" data-field="name" value="{name}" aria-label="Session name" '
        'placeholder="Session name" maxlength="200" required>'
        '<select data-field="day_of_week" aria-label="Day">{days}</select>'
        '<input type="date" data-field="scheduled_date" value="{date}" aria-label="Date">'
        "{actions}</header>"
        '<input type="text" class="ed-notes" data-field="notes" value="{notes}" '
        'aria-label="Session notes" placeholder="Notes" maxlength="2000">{cardio}'
        '<ol class="ed-exercises">{exercises}</ol>'
        '<button type="button" class="ed-small ed-add" data-action="add-exercise">+ Exercise</button>'
        "</article>",
        attrs=_row_attrs("session", s),
        position=s.position if s else "",
        name=s.name if s else "",
        days=_days(s.day_of_week if s else ""),
        date=_date(s.scheduled_date) if s else "",
        actions=mark_safe(_actions("session")),
        notes=s.notes if s else "",
        cardio=format_html('<p class="ed-cardio">Cardio: {}</p>', cardio) if cardio else "",
        exercises=mark_safe(exercises),
    )


def week_html(week: Week | None) -> SafeString:
    w = week
    sessions = (
        "".join(session_html(s) for s in w.sessions.all()) if w is not None else session_html(None)
    )
    return format_html(
        '<section class="ed-week ed-row" {attrs}><header class="ed-week-head">'
        '<h2 class="ed-title">Week <span class="ed-number">{position}</span></h2>'
        '<label>Phase <input type="text" data-field="phase" value="{phase}" maxlength="100" '
        "required></label>"
        '<label>Start <input type="date" data-field="start_date" value="{start}" required></label>'
        '<label>End <input type="date" data-field="end_date" value="{end}" required></label>'
        '<label class="ed-wide">Description <input type="text" data-field="description" '
        'value="{description}" maxlength="2000"></label>{actions}</header>'
        '<div class="ed-sessions">{sessions}</div>'
        '<button type="button" class="ed-small ed-add" data-action="add-session">+ Add a session'
        "</button></section>",
        attrs=_row_attrs("week", w),
        position=w.position if w else "",
        phase=w.phase if w else "",
        start=_date(w.start_date) if w else "",
        end=_date(w.end_date) if w else "",
        description=w.description if w else "",
        actions=mark_safe(_actions("week")),
        sessions=mark_safe(sessions),
    )


def weeks_html(weeks: list[Week]) -> SafeString:
    return mark_safe("".join(week_html(w) for w in weeks))
