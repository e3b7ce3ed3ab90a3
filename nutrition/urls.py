from django.urls import path
from django.views.generic import RedirectView

from . import views

app_name = "nutrition"

urlpatterns = [
    # The Food section opens on the week's meal plan, as the nav's Food link does.
    path(
        "food/",
        RedirectView.as_view(pattern_name="nutrition:meals", query_string=True),
        name="index",
    ),
    path("food/household/", views.household, name="household"),
    path("food/recipes/", views.recipes, name="recipes"),
    path("food/recipes/<id:recipe_id>/", views.recipe, name="recipe"),
    path("food/meals/", views.meals, name="meals"),
    path("food/lists/", views.lists, name="lists"),
    path("food/lists/<id:list_id>/", views.grocery_list, name="list"),
    path("food/items/<id:item_id>/toggle/", views.item_toggle, name="item_toggle"),
]
