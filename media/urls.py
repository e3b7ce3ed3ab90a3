from django.urls import path

from . import views

app_name = "media"

urlpatterns = [
    path("photos/", views.photo_send, name="photo_send"),
    path("photos/<id:read_id>/", views.photo, name="photo"),
    path("photos/<id:read_id>/apply/", views.photo_apply, name="photo_apply"),
    path("photos/<id:read_id>/undo/", views.photo_undo, name="photo_undo"),
    path("photos/recipes/<id:recipe_id>.jpg", views.recipe_photo, name="recipe_photo"),
]
