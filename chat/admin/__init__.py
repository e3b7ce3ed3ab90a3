"""The chat app's admin: what staff review and coaches decide.

* ``audit``: the tool-call audit log (filters, facets, search, streaming CSV export).
* ``conversations``: conversations with their timeline, messages, batch decisions.
* ``batches``: batches, the review queue, and the coach's Approve / Decline / Undo.
* ``review_mode``: coach review mode per athlete.

Staff read everything and change nothing; a coach reads and decides only for the programs they
coach; an athlete never gets past the admin login (``base`` holds the rule, from the access
helpers). The admin index puts the **Tool call audit log** and the pending reviews on top.
"""

from django.contrib import admin

from . import audit, batches, conversations, review_mode

admin.site.index_template = "admin/chat/index.html"

__all__ = ["audit", "batches", "conversations", "review_mode"]
