"""The media family (seed 002's media tools), declared for ``coach.registry``, and what the chat
and the pages need of it, read without naming it (``coach.plan.declared``):

* ``TOOLS``: ``media_ocr_image`` and ``media_speech_to_text`` (``reads``), both reads that change
  nothing and answer with the read text quoted as data.
* ``SLOTS``: the templates the chat's message box and the recipes page include (``{% slot %}`` of
  ``coach``'s template tags): the microphone, the photo button.
* ``OFFERS``: ``photo-recipe``, the ``recipe_create`` proposal a finished read becomes, which the
  chat puts on its card like a button's (``chat.plan_actions.propose_action``).
"""

from coach.plan import Proposed
from coach.render import quote
from coach.toolcalls import ToolCall, new_call_id

from .. import services
from ..access import owned_reads
from ..models import PhotoRead
from . import reads

TOOLS = tuple(reads.SPECS)
PURPOSES = {"media": "text read from the athlete's photos, and voice transcripts"}
SLOTS = {
    "composer": "media/_composer.html",  # in the chat's message box: the microphone
    "chat": "media/_chat.html",  # under it: a recipe from a photo, the microphone's script
    "recipes": "media/_recipes.html",  # the recipes page: a recipe from a photo
}


def photo_recipe(athlete, read_id: int) -> Proposed | None:
    """The ``recipe_create`` call of the athlete's own finished read ``read_id``; None when there
    is no such read of theirs, or nothing in it to propose."""
    read = owned_reads(athlete).filter(pk=read_id, status=PhotoRead.Status.DONE).first()
    found = services.recipe_call(read) if read is not None else None
    if found is None:
        return None
    lines = found.read_lines
    reply = (
        f"Here's {quote(found.title)} as I read it from your photo: {lines} ingredient "
        f"line{'s' if lines != 1 else ''}. Check each line on the card and edit what I misread; "
        "nothing is saved until you press Apply Changes."
    )
    if found.unread:
        count = len(found.unread)
        reply += (
            f" {count} line{'s' if count != 1 else ''} I couldn't read as an ingredient or a "
            "step are in the recipe's notes."
        )
    return Proposed(
        request_text="Make a recipe from my photo.",
        reply_text=reply,
        calls=[ToolCall(id=new_call_id(), name="recipe_create", arguments=found.arguments)],
    )


OFFERS = {"photo-recipe": photo_recipe}
