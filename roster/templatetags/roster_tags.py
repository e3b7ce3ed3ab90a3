"""``{% roster_top request.user as rows %}``: the athletes who need the coach most, for the top of
the admin index (only those with an open flag or something waiting)."""

from django import template
from django.utils import timezone

from ..rows import roster

register = template.Library()
TOP = 5


@register.simple_tag
def roster_top(user) -> list:
    if not getattr(user, "is_authenticated", False):
        return []
    rows, _ = roster(user, today=timezone.localdate())
    return [row for row in rows if row.score > 0][:TOP]
