"""The chat's views: the page and the message flow (``pages``), the athlete's conversations
(``conversations``), the preview card's buttons (``batches``), the buttons that propose without
words (``actions``). Partials live in ``chat/page.html`` (django-template-partials)."""

from .actions import plan_lighter, plan_offer, plan_realign, session_move
from .batches import batch_apply, batch_cancel, batch_undo, call_edit, call_remove
from .conversations import conversation_list, conversation_new, conversation_open, message_feed
from .pages import home, message_poll, message_retry, message_send, program_panel

__all__ = [
    "batch_apply",
    "batch_cancel",
    "batch_undo",
    "call_edit",
    "call_remove",
    "conversation_list",
    "conversation_new",
    "conversation_open",
    "home",
    "message_feed",
    "message_poll",
    "message_retry",
    "message_send",
    "plan_lighter",
    "plan_offer",
    "plan_realign",
    "program_panel",
    "session_move",
]
