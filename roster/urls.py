"""``/admin/roster/``: each view wrapped in ``admin.site.admin_view`` (an active staff user; the
login page otherwise), so the workspace is part of the admin."""

from django.contrib import admin
from django.urls import path

from . import views

app_name = "roster"


def _admin(view):
    return admin.site.admin_view(view)


urlpatterns = [
    path("", _admin(views.roster_page), name="roster"),
    path("check/", _admin(views.check_now), name="check"),
    path("athletes/<id:athlete_id>/", _admin(views.athlete_page), name="athlete"),
    path("flags/<id:flag_id>/", _admin(views.flag_page), name="flag"),
    path("flags/<id:flag_id>/resolve/", _admin(views.flag_resolve), name="resolve"),
    path("flags/<id:flag_id>/snooze/", _admin(views.flag_snooze), name="snooze"),
]
