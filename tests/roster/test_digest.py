"""The roster's section of the coach's e-mail digest (``roster.digest``, found by the inbox)."""

import datetime

from django.core import mail
from django.utils import timezone

from inbox import notify
from roster.digest import DIGEST_TITLE, digest_lines
from roster.models import Flag, FlagKind


def test_the_digest_lists_the_coach_s_new_flags_and_not_another_coach_s(coach, team):
    lines = digest_lines(coach=coach, since=None)
    assert len(lines) == 1 and lines[0].startswith("ann: ")
    assert not any(line.startswith("zoe") for line in lines)


def test_flags_raised_before_the_last_digest_are_not_listed_again(coach, team):
    later = timezone.now() + datetime.timedelta(minutes=1)
    assert digest_lines(coach=coach, since=later) == []


def test_the_athlete_s_own_words_stay_out_of_the_e_mail(coach, team):
    flag = Flag.objects.get(athlete=team[0], kind=FlagKind.MISSED)
    flag.excerpt = "private words"
    flag.save()
    assert "private words" not in " ".join(digest_lines(coach=coach, since=None))


def test_the_inbox_s_digest_e_mail_carries_the_flags_section(
    coach, team, settings, django_capture_on_commit_callbacks
):
    coach.email = "casey@example.com"
    coach.save()
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    assert (DIGEST_TITLE, digest_lines(coach=coach, since=None)) in notify.digest_sections(
        coach, None
    )
    with django_capture_on_commit_callbacks(execute=True):
        assert notify.send_digest(coach) is True
    assert DIGEST_TITLE in mail.outbox[-1].body and "ann: " in mail.outbox[-1].body
