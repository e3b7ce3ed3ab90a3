"""``{% slot "composer" %}``: the templates the families add to a shared page (``SLOTS`` in their
tools module, ``coach.plan.slots``), rendered in ``INSTALLED_APPS`` order with the page's context,
so a page names no family (as Wagtail's hooks let an app add to the admin's pages)."""

from __future__ import annotations

from django import template
from django.template.loader import get_template
from django.utils.safestring import mark_safe

from coach.plan import slots

register = template.Library()


@register.simple_tag(takes_context=True)
def slot(context: template.Context, name: str) -> str:
    flat = context.flatten()
    request = context.get("request")
    return mark_safe("".join(get_template(t).render(flat, request) for t in slots(name)))
