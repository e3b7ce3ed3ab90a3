"""The journal's one signal, for whoever keeps something derived from applied changes.

``changed`` is sent once a change set is committed (``journal.services.capture`` closed with
something recorded, or ``part`` opened a change set of its own) and once an undo is committed,
with ``change_set``, ``athlete``, ``undone`` (True for an undo: ``change_set`` is the one undone)
and ``actor`` (who undid it; None for a commit). It is sent from
``transaction.on_commit`` (robust: a receiver that fails is logged, the change stays), so a
receiver sees committed data and never runs for a rolled-back change. The journal names no
receiver: an app connects in its ``AppConfig.ready()`` (the library renumbers the athlete's
calendar feed, ``library.apps``; the chat marks a batch undone when its change set was undone
elsewhere, ``chat.apps``).
"""

from django.dispatch import Signal

changed = Signal()
