"""What one person, one model or one file may consume: every limit of docs/security.md.

Each is read from the environment variable of the same name (listed in .env.example); each
refusal at a limit tells the person what to do and changes nothing else. Imported into base.py.
"""

from django.core.exceptions import ImproperlyConfigured

from .environ_helpers import env_float, env_int, env_str

# --- Limits: household invitations (issue 18 item 1) ---
# How many invitations one household may send in any 24 hours (0: no limit). Every invitation
# counts, to a name in use or not, so the limit tells nothing about who has an account; a re-invite
# of someone whose invitation is still waiting is not a new one.
HOUSEHOLD_INVITATIONS_PER_DAY = env_int("HOUSEHOLD_INVITATIONS_PER_DAY", 20)

# --- Uploads and imports ---------------------------------------------------------------------
# What one request may upload: its whole body (refused on Content-Length before it is read, and
# counted as it streams in, by config/uploads.py under ASGI and WSGI alike) and each file in it
# (a bigger file fails alone with its reason; the other files of the upload still import).
UPLOAD_MAX_MB = env_int("UPLOAD_MAX_MB", 100)
UPLOAD_FILE_MAX_MB = env_int("UPLOAD_FILE_MAX_MB", 25)
IMPORT_MAX_FILES = env_int("IMPORT_MAX_FILES", 50)
# What one imported file may hold (training/importers/limits.py), so that no file can exhaust a
# worker: its size after gunzip (expanded in chunks and stopped at the cap), its CSV rows, its
# track points (GPX/TCX trackpoints; FIT records, sessions and sleep levels; 100,000 is 27 hours
# at one a second), and its dates (from IMPORT_EARLIEST_DATE to today + IMPORT_FUTURE_DAYS; a
# date outside refuses the file, which names the line or record).
IMPORT_FILE_MAX_MB = env_int("IMPORT_FILE_MAX_MB", 50)
IMPORT_MAX_ROWS = env_int("IMPORT_MAX_ROWS", 10_000)
IMPORT_MAX_POINTS = env_int("IMPORT_MAX_POINTS", 100_000)
IMPORT_EARLIEST_DATE = env_str("IMPORT_EARLIEST_DATE", "1970-01-01")
IMPORT_FUTURE_DAYS = env_int("IMPORT_FUTURE_DAYS", 1)

# --- Failed sign-ins (wired to django-axes in base.py) ------------------------------------------
LOGIN_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5)
LOGIN_LOCKOUT_MINUTES = env_int("LOGIN_LOCKOUT_MINUTES", 15)
if LOGIN_FAILURE_LIMIT < 1 or LOGIN_LOCKOUT_MINUTES < 1:
    raise ImproperlyConfigured(
        "LOGIN_FAILURE_LIMIT and LOGIN_LOCKOUT_MINUTES must be whole numbers of at least 1 "
        f"(got {LOGIN_FAILURE_LIMIT} and {LOGIN_LOCKOUT_MINUTES}); unset them for 5 and 15."
    )

# --- The model's tool calls -------------------------------------------------------------------
# Seed 003: a turn whose model calls more than 5 tools for one athlete message is flagged for staff
# in the audit log and logged as a warning (chat.models.audit.MANY_CALLS_PER_TURN, the seed's
# value). One that brings the turn past AGENT_MAX_TOOL_CALLS is refused whole: none of that
# response's calls is run or queued, and the athlete reads that they should ask for fewer changes
# at a time (nothing is changed; their message is kept).
AGENT_MAX_TOOL_CALLS = env_int("AGENT_MAX_TOOL_CALLS", 20)
# A provider's tool-call id is data: the app names each call by an id of its own (short, URL-safe)
# and keeps the provider's only to send it back. One longer than this many characters is not kept:
# that call is answered with an error instead of being run (coach.toolcalls.own_ids).
CHAT_TOOL_CALL_ID_MAX_CHARS = env_int("CHAT_TOOL_CALL_ID_MAX_CHARS", 512)

# --- Redis on a request path; open reply streams ----------------------------------------------
# REDIS_TIMEOUT: see its use in base.py (the broker's publish, stream reads, stream slots).
REDIS_TIMEOUT = max(0.1, min(env_float("REDIS_TIMEOUT", 1.0), 2.0))
# One account keeps at most CHAT_STREAMS_PER_ACCOUNT reply streams open, across all web processes
# (counted in Redis, chat.stream_slots): opening one more closes its oldest, whose bubble then
# polls. Redis out of reach: a stream can't be counted, so none opens (the bubble polls).
CHAT_STREAMS_PER_ACCOUNT = env_int("CHAT_STREAMS_PER_ACCOUNT", 6)
# A reply stream whose client stops reading ends once one write has waited this many seconds
# (config.write_timeout, under ASGI: bin/serve. bin/run's WSGI dev server has no such timeout).
CHAT_STREAM_WRITE_TIMEOUT = env_float("CHAT_STREAM_WRITE_TIMEOUT", 10.0)

# --- Dates and ids in URLs ----------------------------------------------------------------------
# The dates a page's URL may name (the meal plan's ?week=, the calendar), ISO dates; outside them
# the page is a 404 that names the range, instead of date arithmetic overflowing at 0001-01-01 or
# 9999-12-31. Ids in URLs are 64-bit keys (config.params); a larger number is a 404 too.
URL_DATE_MIN = env_str("URL_DATE_MIN", "2000-01-01")
URL_DATE_MAX = env_str("URL_DATE_MAX", "2100-12-31")

# --- Photos read for recipes (media/, issue 24) -------------------------------------------------
# A photo is checked before it is decoded: its bytes (MEDIA_PHOTO_MAX_MB), its type (JPEG, PNG,
# WebP, GIF's first frame, BMP, TIFF: what Pillow reads from the header) and its pixels
# (MEDIA_PHOTO_MAX_PIXELS, read from the header; Pillow's own decompression-bomb guard is set to
# the same number, so a file that lies in its header is refused while decoding). The text is read
# in the worker, in at most MEDIA_OCR_TIME_LIMIT seconds (then the read fails alone, saying so).
# One person may send MEDIA_PHOTOS_PER_MINUTE photos a minute and have MEDIA_PHOTOS_AT_ONCE being
# read at once; a photo past either is refused with the wait, so one person can't fill the queue.
MEDIA_PHOTO_MAX_MB = env_int("MEDIA_PHOTO_MAX_MB", 8)
MEDIA_PHOTO_MAX_PIXELS = env_int("MEDIA_PHOTO_MAX_PIXELS", 40_000_000)
MEDIA_OCR_MAX_SIDE = env_int("MEDIA_OCR_MAX_SIDE", 2000)
MEDIA_OCR_TIME_LIMIT = env_int("MEDIA_OCR_TIME_LIMIT", 30)
MEDIA_OCR_THREADS = env_int("MEDIA_OCR_THREADS", 1)
MEDIA_PHOTOS_PER_MINUTE = env_int("MEDIA_PHOTOS_PER_MINUTE", 6)
MEDIA_PHOTOS_AT_ONCE = env_int("MEDIA_PHOTOS_AT_ONCE", 2)
# A photo its sender keeps with the recipe waits for the recipe's Apply at most MEDIA_KEEP_HOURS
# (then its bytes are dropped); what is stored is re-encoded without metadata, at most
# MEDIA_KEEP_MAX_SIDE pixels on its longer side.
MEDIA_KEEP_HOURS = env_int("MEDIA_KEEP_HOURS", 24)
MEDIA_KEEP_MAX_SIDE = env_int("MEDIA_KEEP_MAX_SIDE", 1600)
# At most this many photos kept with recipes per person (past it, Apply saves the recipe alone).
MEDIA_KEPT_PHOTOS_MAX = env_int("MEDIA_KEPT_PHOTOS_MAX", 200)
# A transcript the browser made (the chat's microphone) is text like a typed message: at most this
# many characters reach the model through media_speech_to_text.
MEDIA_TRANSCRIPT_MAX_CHARS = env_int("MEDIA_TRANSCRIPT_MAX_CHARS", 4000)
