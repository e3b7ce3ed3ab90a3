"""Forms for the chat page: the athlete's message and the revision a decision was made on."""

from django import forms

MESSAGE_MAX_CHARS = 4000


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


class DecisionForm(forms.Form):
    """Apply Changes / Cancel post the batch revision the athlete saw, so a changed batch is never
    decided blind."""

    revision = forms.IntegerField(min_value=0)
