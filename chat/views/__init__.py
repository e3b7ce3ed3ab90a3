"""The chat's views: the page and the message flow (``pages``), the preview card's buttons
(``batches``). Partials live in ``chat/page.html`` (django-template-partials)."""

from .batches import batch_apply, batch_cancel, batch_undo, call_edit, call_remove
from .pages import home, message_poll, message_retry, message_send, program_panel

__all__ = [
    "batch_apply",
    "batch_cancel",
    "batch_undo",
    "call_edit",
    "call_remove",
    "home",
    "message_poll",
    "message_retry",
    "message_send",
    "program_panel",
]
