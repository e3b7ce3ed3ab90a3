"""``{% open_crisis_flags user as flags %}``: how many crisis flags ``user`` may read and nobody
has marked seen (the admin index shows them on top)."""

from django import template

from ..selectors import open_crisis_flags as _open_crisis_flags

register = template.Library()


@register.simple_tag
def open_crisis_flags(user) -> int:
    if not getattr(user, "is_authenticated", False):
        return 0
    return _open_crisis_flags(user).count()
