from django.apps import AppConfig


class NutritionConfig(AppConfig):
    name = "nutrition"
    verbose_name = "Nutrition: recipes, meal plan, grocery lists"
    default_auto_field = "django.db.models.BigAutoField"
