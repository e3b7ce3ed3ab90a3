"""The coach's badge in the admin's header: reviews waiting for them and athletes' replies they
haven't read (two queries, on admin pages only)."""

from __future__ import annotations

from typing import Any

from django import template

from access import policy

from .. import counts, reviews

register = template.Library()


@register.simple_tag
def inbox_counts(user: Any) -> dict[str, int]:
    if not policy.is_active(user) or not user.is_staff:
        return {}
    return {"reviews": reviews.count_waiting(user), "replies": counts.unread_replies(user)}
