"""The conversation layer's models: the conversation and its messages, the proposals and their
decisions (``conversation``), and the tool-call audit log staff read (``audit``)."""

from .audit import ToolCallRecord
from .conversation import BatchDecision, Conversation, Message, PendingToolBatch
from .settings import CoachReview

__all__ = [
    "BatchDecision",
    "CoachReview",
    "Conversation",
    "Message",
    "PendingToolBatch",
    "ToolCallRecord",
]
