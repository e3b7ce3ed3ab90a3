"""Forms for the chat page: the athlete's message and the revision a decision was made on."""

import uuid

from django import forms

MESSAGE_MAX_CHARS = 4000
KEY_MAX_CHARS = 36  # a UUID written out with its hyphens
BAD_KEY = "This message's key isn't a UUID: reload the page and send it again."


class MessageForm(forms.Form):
    text = forms.CharField(
        strip=True,
        max_length=MESSAGE_MAX_CHARS,
        error_messages={
            "required": "Type a message first.",
            "max_length": "A message can be at most %(limit_value)d characters (yours has %(show_value)d).",
        },
        widget=forms.Textarea(
            attrs={
                "rows": 2,
                "placeholder": "Message your coach…",
                "aria-label": "Message",
                "autocomplete": "off",
            }
        ),
    )
    # The message's idempotency key (``chat.services.message_send``): the page makes one per
    # message it composes and keeps it while it sends the same text again; optional, for pages
    # from before keys.
    key = forms.CharField(
        required=False,
        strip=True,
        max_length=KEY_MAX_CHARS,
        error_messages={"max_length": BAD_KEY},
    )

    def clean_key(self) -> uuid.UUID | None:
        raw = self.cleaned_data.get("key") or ""
        if not raw:
            return None
        try:
            return uuid.UUID(raw)
        except ValueError:
            raise forms.ValidationError(BAD_KEY, code="invalid_key") from None


class DecisionForm(forms.Form):
    """Apply Changes / Cancel post the batch revision the athlete saw, so a changed batch is never
    decided blind."""

    revision = forms.IntegerField(min_value=0)
