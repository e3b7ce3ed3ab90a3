"""E-mails, through Django's mail framework (the console backend by default; any SMTP or provider
backend by the ``EMAIL_*`` settings, ``config.settings.email``).

* **The athlete** gets one when their coach writes to them or approves or declines their changes
  (``tell_athlete``), unless ``NotificationSettings.coach_updates`` is off.
* **The coach** gets a digest (``send_digest``, run every ``INBOX_DIGEST_INTERVAL`` seconds by
  Celery beat) of the changes that started waiting for their review since the last one, and of
  what other apps add: any installed app with a ``digest`` module declaring
  ``digest_lines(*, coach, since) -> list[str]`` (and ``DIGEST_TITLE``) gets its section, found
  through ``django.apps`` (the roster's new flags); without one there is no such section. Off with
  ``NotificationSettings.review_digest``.

Every e-mail carries a signed one-click unsubscribe link (``List-Unsubscribe`` and
``List-Unsubscribe-Post``, RFC 8058) for its own kind; the link needs no sign-in and switches only
that kind off for only that person. The texts are plain text: what a person wrote is never HTML.
"""

from __future__ import annotations

import datetime
import logging
from importlib import import_module
from typing import Any

from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.mail import EmailMessage
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from access import policy
from chat.models import BatchDecision, Message, PendingToolBatch

from .models import NotificationSettings

logger = logging.getLogger(__name__)

SALT = "inbox.unsubscribe"
COACH_UPDATES, REVIEW_DIGEST = "coach_updates", "review_digest"
KINDS = {
    COACH_UPDATES: "e-mails when your coach writes to you or decides on your changes",
    REVIEW_DIGEST: "the digest of changes waiting for your review",
}
DIGEST_MODULE = "digest"


def settings_for(user: Any) -> NotificationSettings:
    return NotificationSettings.objects.get_or_create(user=user)[0]


def absolute(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def unsubscribe_token(user: Any, kind: str) -> str:
    return signing.dumps({"u": user.pk, "k": kind}, salt=SALT)


def read_token(token: str) -> tuple[int, str]:
    """The user id and kind of a token; ``signing.BadSignature`` for a forged or broken one."""
    data = signing.loads(token, salt=SALT)
    if (
        not isinstance(data, dict)
        or data.get("k") not in KINDS
        or not isinstance(data.get("u"), int)
    ):
        raise signing.BadSignature("Not an unsubscribe token.")
    return data["u"], data["k"]


def unsubscribe(token: str) -> tuple[Any, str]:
    """Switch the token's kind off for its user; the user and kind (``BadSignature`` if forged,
    ``LookupError`` for a user who is gone)."""
    user_id, kind = read_token(token)
    user = get_user_model().objects.filter(pk=user_id).first()
    if user is None:
        raise LookupError("No such person.")
    NotificationSettings.objects.update_or_create(user=user, defaults={kind: False})
    return user, kind


def _send(user: Any, kind: str, subject: str, body: str) -> bool:
    url = absolute(reverse("inbox:unsubscribe", args=[unsubscribe_token(user, kind)]))
    footer = (
        f"\n\n--\nYou get this because {KINDS[kind]} are on. "
        f"Stop them with one click: {url}\nOr change it here: {absolute(reverse('inbox:settings'))}\n"
    )
    mail = EmailMessage(
        subject=subject,
        body=body + footer,
        to=[user.email],
        headers={
            "List-Unsubscribe": f"<{url}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )
    return mail.send() == 1


def _wants(user: Any, kind: str) -> bool:
    return bool(user.email) and policy.is_active(user) and getattr(settings_for(user), kind)


def tell_athlete(*, message_id: int | None = None, decision_id: int | None = None) -> bool:
    """The athlete's e-mail about their coach's message or decision; False when not sent."""
    if message_id is not None:
        message = (
            Message.objects.select_related("conversation__athlete", "author")
            .filter(pk=message_id, role=Message.Role.COACH)
            .first()
        )
        if message is None:
            return False
        athlete = message.conversation.athlete
        subject = "Your coach wrote to you"
        body = f"Your coach wrote:\n\n{message.content}\n\nReply in your chat: {absolute('/')}"
    else:
        decision = (
            BatchDecision.objects.select_related("batch__conversation__athlete")
            .filter(
                pk=decision_id, kind__in=[BatchDecision.Kind.APPROVED, BatchDecision.Kind.DECLINED]
            )
            .first()
        )
        if decision is None:
            return False
        athlete = decision.batch.conversation.athlete
        approved = decision.kind == BatchDecision.Kind.APPROVED
        subject = f"Your coach {'approved' if approved else 'declined'} your changes"
        body = (
            "Your coach approved the changes you sent them; they are applied to your program."
            if approved
            else "Your coach declined the changes you sent them; nothing was changed."
        )
        if decision.note:
            body += f"\n\nTheir note:\n{decision.note}"
        body += f"\n\nSee it in your chat: {absolute('/')}"
    if not _wants(athlete, COACH_UPDATES):
        return False
    return _send(athlete, COACH_UPDATES, subject, body)


# --- the coach's digest --------------------------------------------------------------------------


def digest_sections(coach: Any, since: datetime.datetime | None) -> list[tuple[str, list[str]]]:
    """What other apps add to the digest (their ``digest.digest_lines``), found by ``django.apps``."""
    sections = []
    for config in apps.get_app_configs():
        try:
            module = import_module(f"{config.name}.{DIGEST_MODULE}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{config.name}.{DIGEST_MODULE}":
                raise
            continue
        lines = getattr(module, "digest_lines", None)
        if lines is None:
            continue
        found = list(lines(coach=coach, since=since))
        if found:
            sections.append((getattr(module, "DIGEST_TITLE", config.verbose_name), found))
    return sections


def new_reviews(coach: Any, since: datetime.datetime | None) -> list[PendingToolBatch]:
    """The batches waiting for ``coach`` that started waiting after ``since``."""
    rule = policy.scope(
        coach, PendingToolBatch, lookup="conversation__program", action=policy.REVIEW
    )
    waiting = PendingToolBatch.objects.filter(
        status=PendingToolBatch.BatchStatus.AWAITING_REVIEW,
        conversation__athlete_id__in=policy.athletes_of(coach),  # a superuser coaches no one
    )
    if rule is not None:
        waiting = waiting.filter(rule)
    if since is not None:
        asked = BatchDecision.objects.filter(
            kind=BatchDecision.Kind.REVIEW_REQUESTED, created_at__gt=since
        ).values("batch_id")
        waiting = waiting.filter(pk__in=asked)
    return list(waiting.select_related("conversation__athlete").order_by("pk"))


def send_digest(coach: Any, *, now: datetime.datetime | None = None) -> bool:
    """One coach's digest, if anything is new since the last; the time moves on either way.
    Locked on the coach's settings row, so two runs at once send it once."""
    now = now or timezone.now()
    if not (coach.email and policy.is_active(coach)):
        return False
    with transaction.atomic():
        settings_for(coach)
        row = NotificationSettings.objects.select_for_update().get(user=coach)
        if not row.review_digest:
            return False
        since = row.digest_sent_at
        reviews = new_reviews(coach, since)
        sections = digest_sections(coach, since)
        row.digest_sent_at = now
        row.save(update_fields=["digest_sent_at"])
        if not reviews and not sections:
            return False
        parts = []
        if reviews:
            lines = [
                f"- {b.conversation.athlete.get_username()}: {len(b.calls)} change(s), waiting "
                f"since {timezone.localtime(b.updated_at):%Y-%m-%d %H:%M}"
                for b in reviews
            ]
            parts.append(
                f"Waiting for your review ({len(reviews)}):\n"
                + "\n".join(lines)
                + f"\nReview them: {absolute(reverse('inbox:reviews'))}"
            )
        parts += [
            f"{title}:\n" + "\n".join(f"- {line}" for line in lines) for title, lines in sections
        ]
        transaction.on_commit(
            lambda: _send(coach, REVIEW_DIGEST, "Spotter: what needs you", "\n\n".join(parts))
        )
    return True


def coaches() -> Any:
    """The people a digest may go to: active admin users (coaches) with an e-mail address."""
    return get_user_model().objects.filter(is_active=True, is_staff=True).exclude(email="")


def send_digests(*, now: datetime.datetime | None = None) -> int:
    sent = 0
    for coach in coaches().order_by("pk"):
        try:
            sent += send_digest(coach, now=now)
        except Exception:  # one coach's failure doesn't stop the others' digests
            logger.exception("The digest of coach %s failed", coach.pk)
    return sent
