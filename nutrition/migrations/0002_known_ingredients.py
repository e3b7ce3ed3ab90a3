"""Load the known ingredients (``nutrition/data/ingredients.txt``); safe to run again."""

from django.db import migrations

from nutrition.ingredients import load_known_ingredients


def load(apps, schema_editor):
    load_known_ingredients(apps.get_model("nutrition", "Ingredient"))


class Migration(migrations.Migration):
    dependencies = [("nutrition", "0001_initial")]

    operations = [migrations.RunPython(load, migrations.RunPython.noop)]
