"""The inbox's URLs (namespace ``inbox``), included at the site's root before the admin's.

The coach's pages live under ``/admin/inbox/`` and are admin views (``views.in_admin``). Other
apps link to an athlete's thread with ``reverse("inbox:compose", args=[athlete_id])``
(docs/coaching-inbox.md)."""

from django.urls import path

from . import public, views
from .views import in_admin

app_name = "inbox"

urlpatterns = [
    path("admin/inbox/reviews/", in_admin(views.review_list), name="reviews"),
    path("admin/inbox/reviews/bulk/", in_admin(views.review_bulk), name="bulk"),
    path("admin/inbox/reviews/<id:batch_id>/", in_admin(views.review_decide), name="decide"),
    path("admin/inbox/messages/", in_admin(views.reply_list), name="messages"),
    path("admin/inbox/athletes/<id:athlete_id>/", in_admin(views.compose), name="compose"),
    path("inbox/badge/", public.badge, name="badge"),
    path("notifications/", public.notification_settings, name="settings"),
    path("notifications/unsubscribe/<str:token>/", public.unsubscribe, name="unsubscribe"),
]
