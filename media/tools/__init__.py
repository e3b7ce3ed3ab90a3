"""The media family (seed 002's media tools), declared for ``coach.registry``, and what the chat
and the pages need of it, read without naming it (``coach.plan.declared``):

* ``TOOLS``: ``media_ocr_image`` and ``media_speech_to_text`` (``reads``), both reads that change
  nothing and answer with the read text quoted as data.
* ``SLOTS``: the templates the chat's message box and the recipes page include (``{% slot %}`` of
  ``coach``'s template tags): the microphone, the photo button, the photo kept with a recipe.

The ``recipe_create`` a finished read becomes is not a chat offer: it is on the photo's own card
(``media.card``), because a conversation belongs to a training program and a recipe needs none.
"""

from . import reads

TOOLS = tuple(reads.SPECS)
PURPOSES = {"media": "text read from the athlete's photos, and voice transcripts"}
SLOTS = {
    "composer": "media/_composer.html",  # in the chat's message box: the microphone
    "chat": "media/_chat.html",  # under it: a recipe from a photo, the microphone's script
    "recipes": "media/_recipes.html",  # the recipes page: a recipe from a photo
    "recipe": "media/_recipe_photo.html",  # a recipe's page: the photo kept with it
}
