"""A photo kept with a recipe goes with it. A recipe deleted outright takes its ``RecipePhoto``
with it (the foreign key cascades); the nutrition family soft-deletes recipes (``deleted_at``), so
a recipe saved as deleted deletes its photo here, at once (undoing the deletion brings the recipe
back, not the picture: docs/media.md)."""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_save
from django.dispatch import receiver

from .models import RecipePhoto


# The nutrition family's model by its label, as the foreign keys name it (a family reaches another
# only through its services and access modules: tests/test_family_boundary_imports.py).
@receiver(post_save, sender="nutrition.Recipe", dispatch_uid="media.recipe_photo_goes_with_recipe")
def photo_goes_with_recipe(sender: type, instance: Any, **kwargs: Any) -> None:
    if instance.deleted_at is not None:
        RecipePhoto.objects.filter(recipe_id=instance.pk).delete()
