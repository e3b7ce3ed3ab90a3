"""``/admin/calendar/``: the coach's calendar of one athlete (``training.coach_views``), each view
wrapped in ``admin.site.admin_view`` (an active staff user; the admin's sign-in otherwise), so it is
part of the admin."""

from django.contrib import admin
from django.urls import path

from . import coach_views

app_name = "training_coach"


def _admin(view):
    return admin.site.admin_view(view)


urlpatterns = [
    path("<id:athlete_id>/", _admin(coach_views.calendar_page), name="calendar"),
    path("<id:athlete_id>/preview/", _admin(coach_views.preview), name="preview"),
    path("<id:athlete_id>/apply/", _admin(coach_views.apply), name="apply"),
    path("<id:athlete_id>/undo/", _admin(coach_views.undo), name="undo"),
]
