"""The athlete's care: the crisis path's fixed message and the delivery of reminders (the
wellness family). Read from the environment variables of the same names (.env.example).
Imported into base.py."""

from .environ_helpers import env_float, env_str

# Seed 004's crisis path: when the athlete's mood is logged as "crisis", the coach's reply is this
# fixed, reviewed text (never the model's words). Each deployment sets the resources of its
# country and service (WELLNESS_CRISIS_MESSAGE); the athlete's coach sees a flag in the admin.
WELLNESS_CRISIS_MESSAGE = env_str(
    "WELLNESS_CRISIS_MESSAGE",
    "I've noted how you're feeling, and I'm glad you told me. I'm a training coach, not a crisis "
    "service, so please reach out to people who can help right now:\n\n"
    "- If you are in danger or might hurt yourself, call your local emergency number "
    "(112 in Europe, 911 in the US and Canada, 999 in the UK).\n"
    "- Talk to someone today: in the US call or text 988 (Suicide & Crisis Lifeline); in the UK "
    "and Ireland call Samaritans on 116 123; elsewhere, findahelpline.com lists free, "
    "confidential lines.\n\n"
    "I have let your coach know. Training can wait.",
)
# Reminders (wellness) are delivered by this beat entry: every minute, each reminder whose local
# time has come (in the athlete's time zone) is posted once in their chat (chat.reminders).
WELLNESS_REMINDER_INTERVAL = env_float("WELLNESS_REMINDER_INTERVAL", 60.0)
