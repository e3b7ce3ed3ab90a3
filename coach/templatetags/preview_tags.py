"""How a preview's values read on a page: the filters of the shared before → after rendering
(``templates/coach/_changes.html``, ``_whatif.html``), used by the chat's card and the program
editor's preview alike."""

import re

from django import template

from coach.render import cardio_text

register = template.Library()

_CAMEL_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


@register.filter
def humanize_field(name: object) -> str:
    """``targetLoad`` → "Target load", ``rest_seconds`` → "Rest seconds"."""
    text = _CAMEL_BOUNDARY.sub(" ", str(name)).replace("_", " ").strip().lower()
    return text[:1].upper() + text[1:]


@register.filter
def show_value(value: object) -> str:
    """A preview value as a person reads it: empty for None, yes/no for booleans, a cardio block
    in words."""
    if value is None or value == "":
        return "—"
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if isinstance(value, dict) and "type" in value:
        return cardio_text(value)  # a cardio block: "Zone 2, 45 min, Running"
    if isinstance(value, dict):
        return ", ".join(f"{humanize_field(k)}: {show_value(v)}" for k, v in value.items() if v)
    if isinstance(value, list):
        return ", ".join(str(v) for v in value) or "—"
    return str(value)
