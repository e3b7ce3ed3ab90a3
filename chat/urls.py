from django.urls import path

from . import views
from .views.stream import message_stream

app_name = "chat"

# A call's id in a URL is the app's own (``coach.toolcalls.own_ids``: ``[A-Za-z0-9_-]``), never the
# provider's, which may hold "/" or hundreds of characters.
urlpatterns = [
    path("", views.home, name="home"),
    path("program/", views.program_panel, name="program"),
    path("conversations/", views.conversation_list, name="conversations"),
    path("conversations/new/", views.conversation_new, name="conversation_new"),
    path("conversations/<id:conversation_id>/", views.conversation_open, name="conversation"),
    path("conversations/<id:conversation_id>/messages/", views.message_send, name="message_send"),
    path("conversations/<id:conversation_id>/feed/", views.message_feed, name="message_feed"),
    path("messages/<id:message_id>/", views.message_poll, name="message_poll"),
    path("messages/<id:message_id>/stream/", message_stream, name="message_stream"),
    path("messages/<id:message_id>/retry/", views.message_retry, name="message_retry"),
    path("batches/<id:batch_id>/apply/", views.batch_apply, name="batch_apply"),
    path("batches/<id:batch_id>/cancel/", views.batch_cancel, name="batch_cancel"),
    path("batches/<id:batch_id>/undo/", views.batch_undo, name="batch_undo"),
    path("batches/<id:batch_id>/calls/<slug:call_id>/edit/", views.call_edit, name="call_edit"),
    path(
        "batches/<id:batch_id>/calls/<slug:call_id>/remove/", views.call_remove, name="call_remove"
    ),
    path("sessions/<id:session_id>/move/", views.session_move, name="session_move"),
    path("plan/offer/", views.plan_offer, name="plan_offer"),
    path("plan/realign/", views.plan_realign, name="plan_realign"),
    path("plan/lighter/", views.plan_lighter, name="plan_lighter"),
]
