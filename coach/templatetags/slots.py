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
    # Rendered in the page's own context, as ``{% include %}`` renders (a pushed layer keeps what a
    # slot sets to itself): rendering a flattened copy with the request ran every context
    # processor again for each slot, about 5 % of a short chat page.
    with context.push():
        return mark_safe("".join(get_template(t).template.render(context) for t in slots(name)))
