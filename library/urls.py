from django.urls import path

from . import views

app_name = "library"

urlpatterns = [
    path("library/", views.index, name="index"),
    path("library/<id:workout_id>/", views.detail, name="detail"),
    path("settings/calendar/", views.feed_settings, name="feed_settings"),
    path("settings/calendar/rotate/", views.feed_rotate, name="feed_rotate"),
    path("calendar/feed/<str:token>.ics", views.feed, name="feed"),
]
