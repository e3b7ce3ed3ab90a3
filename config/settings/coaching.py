"""The coach's workspace: the inbox's e-mail and messages (docs/coaching-inbox.md) and the
roster's needs-attention thresholds (docs/coaching.md). Each is read from the environment variable
of the same name (listed in .env.example). Imported into base.py."""

from .environ_helpers import env_float, env_int, env_str

# The coach's inbox (docs/coaching-inbox.md): the coach's e-mail digest of new reviews (and
# flags) every INBOX_DIGEST_INTERVAL seconds; at most INBOX_MESSAGES_PER_MINUTE messages a coach
# sends a minute (0: no limit); at most INBOX_REVIEW_LIMIT reviews on the inbox's page. SITE_URL
# makes the e-mails' links absolute.
INBOX_DIGEST_INTERVAL = env_float("INBOX_DIGEST_INTERVAL", 3600.0)
INBOX_MESSAGES_PER_MINUTE = env_int("INBOX_MESSAGES_PER_MINUTE", 20)
INBOX_REVIEW_LIMIT = env_int("INBOX_REVIEW_LIMIT", 200)
SITE_URL = env_str("SITE_URL", "http://localhost:8000")
# The coach's roster (roster/, docs/coaching.md): the thresholds of its needs-attention flags, and
# how often the periodic task computes them for every coached athlete (seconds).
ROSTER_FLAGS_INTERVAL = env_float("ROSTER_FLAGS_INTERVAL", 900.0)
ROSTER_MISSED_SESSIONS = env_int("ROSTER_MISSED_SESSIONS", 2)  # missed within ROSTER_MISSED_DAYS
ROSTER_MISSED_DAYS = env_int("ROSTER_MISSED_DAYS", 7)
ROSTER_FORM_BELOW = env_float("ROSTER_FORM_BELOW", -30.0)  # form (TSB) below this
ROSTER_LOAD_JUMP_PERCENT = env_float("ROSTER_LOAD_JUMP_PERCENT", 30.0)  # week on week
ROSTER_READINESS_BELOW = env_float("ROSTER_READINESS_BELOW", 2.5)  # score 1–5
ROSTER_READINESS_DAYS = env_int("ROSTER_READINESS_DAYS", 3)  # logged days running
ROSTER_REVIEW_HOURS = env_float("ROSTER_REVIEW_HOURS", 24.0)  # a proposal waiting longer
ROSTER_INACTIVE_DAYS = env_int("ROSTER_INACTIVE_DAYS", 7)  # no workout nor log
ROSTER_NOTE_DAYS = env_int("ROSTER_NOTE_DAYS", 14)  # how far back notes are read
# Words in an athlete's notes and messages that flag them for the coach: pointed at, never
# interpreted (a comma-separated list replaces them).
ROSTER_PAIN_WORDS = [
    word.strip()
    for word in env_str(
        "ROSTER_PAIN_WORDS",
        "pain,painful,hurt,hurts,hurting,sore,injury,injured,ache,aches,aching,sprain,sprained,"
        "strain,strained,swollen,swelling,tweaked,ill,sick,fever,flu,covid,nausea,"
        "dizzy,vomiting",
    ).split(",")
    if word.strip()
]
