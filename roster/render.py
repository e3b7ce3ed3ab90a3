"""The roster's rows as HTML, built in Python: 200 rows of ten cells through the template engine
took most of the page's time (about 7,000 variable lookups); here each row is one
``format_html``, every value escaped by it. The page's template keeps everything else."""

from __future__ import annotations

from urllib.parse import quote

from django.utils.dateformat import format as date_format
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from .rows import RosterRow


def _muted(text: str) -> SafeString:
    return format_html('<span class="muted">{}</span>', text)


def _program(row: RosterRow) -> SafeString:
    if not row.facts.get("program"):
        return _muted("no program")
    return format_html(
        '{}<br><span class="muted">{}</span>',
        row.facts["program"],
        row.facts.get("week") or "between weeks",
    )


def _last_workout(row: RosterRow) -> SafeString:
    last = row.facts.get("last_workout")
    if not last:
        return _muted("none")
    days = row.days_since
    return format_html(
        '{}<br><span class="muted">{} day{} ago</span>',
        date_format(last, "D j M"),
        days,
        "" if days == 1 else "s",
    )


def _form(row: RosterRow) -> SafeString:
    if row.form_now is None:
        return _muted("–")
    return format_html("{} {}", f"{row.form_now:.0f}", row.spark)


def _readiness(row: RosterRow) -> SafeString:
    if row.readiness_now is None:
        return _muted("–")
    return format_html("{} {}", f"{row.readiness_now:.1f}", row.readiness_trend)


def _flags(row: RosterRow, flag_url: str) -> SafeString:
    if not row.flags:
        return _muted("none")
    return format_html_join(
        "",
        '<a class="flag-link {}" href="{}{}/">⚑ {}</a>',
        ((flag.kind, flag_url, flag.pk, flag.get_kind_display()) for flag in row.flags),
    )


def _waiting(row: RosterRow, reviews_url: str) -> SafeString:
    if not row.waiting:
        return _muted("0")
    return format_html(
        '<a href="{}?review=pending&amp;q={}">{} proposal{}</a>',
        reviews_url,
        quote(row.athlete.username),
        row.waiting,
        "" if row.waiting == 1 else "s",
    )


def row_html(row: RosterRow, urls: dict[str, str], unread_column: bool) -> SafeString:
    unread = format_html("<td>{}</td>", row.unread) if unread_column else ""
    return format_html(
        '<tr class="roster-row{}" data-athlete="{}" data-score="{}">'
        '<th scope="row"><a href="{}{}/">{}</a></th>'
        "<td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
        '<td class="flags">{}</td><td>{}</td>{}</tr>',
        " crisis-row" if row.crisis else "",
        row.athlete.username,
        row.score,
        urls["athlete"],
        row.athlete.pk,
        row.athlete.get_full_name() or row.athlete.username,
        _program(row),
        row.this_week_chip,
        row.last4_chip,
        _last_workout(row),
        _form(row),
        _readiness(row),
        _flags(row, urls["flag"]),
        _waiting(row, urls["reviews"]),
        unread,
    )


def rows_html(rows: list[RosterRow], urls: dict[str, str], unread_column: bool) -> SafeString:
    return mark_safe("".join(row_html(row, urls, unread_column) for row in rows))  # each escaped
