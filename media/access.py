"""What the media family tells the access policy (``access.policy``): a photo read is its
sender's (``PhotoRead.get_owner_object()``, a user). Only the sender reaches it: the pages and the
tool look a read up with ``owned_reads`` (the policy's ``OWN``), so a coach or staff member, who
would read other data of the athlete, doesn't see the text of their photos, and anyone else's read
is "not found". The athlete's coach only reads what a read became: a recipe, after Apply.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from access.policy import OWN, visible

from .models import PhotoRead, RecipePhoto

COACH_READS_ONLY = [
    PhotoRead,
    RecipePhoto,
]  # a coach never acts on an athlete's photo (they don't see it)


def owned_reads(user: Any) -> QuerySet[PhotoRead]:
    """The photo reads ``user`` sent (none for anyone else, staff and coaches included)."""
    return visible(PhotoRead.objects.all(), user, lookup="owner", action=OWN)


def owned_photos(user: Any) -> QuerySet[RecipePhoto]:
    """The photos ``user`` kept with their recipes, of recipes not deleted (none for anyone else:
    a coach reads the athlete's recipes, not the pictures they took)."""
    alive = RecipePhoto.objects.filter(recipe__deleted_at__isnull=True)
    return visible(alive, user, lookup="owner", action=OWN)
