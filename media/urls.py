from django.urls import path

from . import views

app_name = "media"

urlpatterns = [
    path("photos/", views.photo_send, name="photo_send"),
    path("photos/<id:read_id>/", views.photo, name="photo"),
]
