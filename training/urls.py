from django.urls import path

from . import calendar_views, views

app_name = "training"

urlpatterns = [
    path("calendar/", calendar_views.calendar_page, name="calendar"),
    path("calendar/unavailable/", calendar_views.unavailable_mark, name="unavailable_mark"),
    path(
        "calendar/unavailable/<id:mark_id>/clear/",
        calendar_views.unavailable_clear,
        name="unavailable_clear",
    ),
    path("fitness/", views.fitness_page, name="fitness"),
    path("activities/", views.activity_list, name="activities"),
    path("activities/<id:activity_id>/", views.activity_detail, name="activity"),
    path("activities/<id:activity_id>/delete/", views.activity_delete, name="activity_delete"),
    path("settings/", views.profile_settings, name="settings"),
    path("import/", views.import_upload, name="import"),
    path("import/<id:job_id>/", views.import_status, name="import_job"),
    path("log/", views.log_today, name="log_today"),
    path("log/<id:session_id>/", views.log_session, name="log_session"),
]
