"""``kept_photo``: the photo the signed-in person kept with a recipe (``media.access``: their own,
none for anyone else), for the recipe page's slot."""

from __future__ import annotations

from typing import Any

from django import template

from ..access import owned_photos

register = template.Library()


@register.simple_tag
def kept_photo(recipe: Any, user: Any):
    if recipe is None or user is None or not user.is_authenticated:
        return None
    return owned_photos(user).filter(recipe_id=recipe.pk).first()
