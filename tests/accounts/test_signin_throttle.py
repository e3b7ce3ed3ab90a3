"""Failed sign-ins are throttled per account and per address (issue 18 item 3, django-axes).

The limits are the settings' defaults: LOGIN_FAILURE_LIMIT (5) failures within
LOGIN_LOCKOUT_MINUTES (15) lock the account, and the address, until that long after the last one.
"""

from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from axes.models import AccessAttempt
from django.db.models import F
from django.test import AsyncClient
from django.urls import reverse

from tests.factories import CoachFactory, UserFactory

pytestmark = pytest.mark.django_db

LOGIN = "/accounts/login/"
ADMIN_LOGIN = "/admin/login/"
PASSWORD = "pw-for-tests"
ATTACKER = "203.0.113.7"
HOME = "198.51.100.20"
MESSAGE = "Too many failed sign-ins. Try again in {} minutes."


def _sign_in(client, username, password, *, address=HOME, url=LOGIN, **headers):
    return client.post(
        url, {"username": username, "password": password}, REMOTE_ADDR=address, **headers
    )


def _signed_in(client) -> bool:
    return "_auth_user_id" in client.session


def _fail(client, username, times, *, address=HOME, url=LOGIN):
    for _ in range(times):
        response = _sign_in(client, username, "not-the-password", address=address, url=url)
    return response


def _age_failures(by: timedelta) -> None:
    """Move the clock: every recorded failure happened ``by`` earlier."""
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - by)


def test_thirty_wrong_passwords_then_the_right_one_is_refused_with_the_message(client):
    ana = UserFactory(username="ana")
    for attempt in range(30):
        response = _sign_in(client, "ana", f"guess-{attempt}")
        assert not _signed_in(client)
    response = _sign_in(client, "ana", PASSWORD)
    assert response.status_code == 429
    assert MESSAGE.format(15) in response.content.decode()
    assert 14 * 60 < int(response["Retry-After"]) <= 15 * 60
    assert not _signed_in(client)
    ana.refresh_from_db()
    assert ana.last_login is None


def test_the_failure_that_reaches_the_limit_already_answers_with_the_lock(client):
    UserFactory(username="ana")
    response = _fail(client, "ana", 4)
    assert response.status_code == 200  # the form again, "enter a correct username and password"
    assert "Too many failed sign-ins" not in response.content.decode()
    response = _fail(client, "ana", 1)
    assert response.status_code == 429
    assert MESSAGE.format(15) in response.content.decode()


def test_the_lock_expires_and_the_message_counts_down(client):
    UserFactory(username="ana")
    _fail(client, "ana", 5)
    _age_failures(timedelta(minutes=14))
    response = _sign_in(client, "ana", PASSWORD)
    assert response.status_code == 429
    assert "Too many failed sign-ins. Try again in 1 minute." in response.content.decode()
    assert not _signed_in(client)
    # Trying while locked does not push the end of the lock back.
    _age_failures(timedelta(minutes=1, seconds=1))
    response = _sign_in(client, "ana", PASSWORD)
    assert response.status_code == 302
    assert _signed_in(client)


def test_the_lock_length_is_a_setting(client, settings):
    settings.AXES_COOLOFF_TIME = timedelta(minutes=2)
    UserFactory(username="ana")
    response = _fail(client, "ana", 5)
    assert MESSAGE.format(2) in response.content.decode()
    assert 100 < int(response["Retry-After"]) <= 120
    _age_failures(timedelta(minutes=2, seconds=1))
    assert _sign_in(client, "ana", PASSWORD).status_code == 302


def test_one_address_is_locked_across_different_usernames(client):
    UserFactory(username="ana")
    for n in range(5):
        _sign_in(client, f"someone-{n}", "not-the-password", address=ATTACKER)
    refused = _sign_in(client, "ana", PASSWORD, address=ATTACKER)
    assert refused.status_code == 429
    assert not _signed_in(client)
    # Ana, at home, is not concerned: no failure was made with her name.
    assert _sign_in(client, "ana", PASSWORD, address=HOME).status_code == 302
    assert _signed_in(client)


def test_a_forged_x_forwarded_for_does_not_give_a_new_address(client):
    UserFactory(username="ana")
    for n in range(5):
        _sign_in(
            client,
            f"someone-{n}",
            "not-the-password",
            address=ATTACKER,
            HTTP_X_FORWARDED_FOR=f"192.0.2.{n + 1}",
        )
    refused = _sign_in(client, "ana", PASSWORD, address=ATTACKER, HTTP_X_FORWARDED_FOR="192.0.2.99")
    assert refused.status_code == 429
    assert not _signed_in(client)


def test_one_account_is_locked_across_addresses(client):
    UserFactory(username="ana")
    for n in range(5):
        _sign_in(client, "ana", "not-the-password", address=f"192.0.2.{n + 1}")
    refused = _sign_in(client, "ana", PASSWORD, address=HOME)
    assert refused.status_code == 429
    assert not _signed_in(client)


def test_the_admin_login_is_throttled_too(client):
    CoachFactory(username="coach", is_superuser=True)
    response = _fail(client, "coach", 5, url=ADMIN_LOGIN)
    assert response.status_code == 429
    refused = _sign_in(client, "coach", PASSWORD, url=ADMIN_LOGIN)
    assert refused.status_code == 429
    assert MESSAGE.format(15) in refused.content.decode()
    assert not _signed_in(client)
    assert client.get("/admin/").status_code == 302  # still to the login page
    # The lock page leads back to the page the user came from.
    assert f'href="{ADMIN_LOGIN}"' in refused.content.decode()


def test_failures_on_the_admin_login_count_on_the_site_login(client):
    UserFactory(username="ana")
    _fail(client, "ana", 3, url=ADMIN_LOGIN)
    _fail(client, "ana", 2, url=LOGIN)
    assert _sign_in(client, "ana", PASSWORD).status_code == 429


def test_fewer_failures_than_the_limit_then_the_right_password_signs_in(client):
    UserFactory(username="ana")
    _fail(client, "ana", 4)
    response = _sign_in(client, "ana", PASSWORD)
    assert response.status_code == 302
    assert response["Location"] == reverse("chat:home")
    assert _signed_in(client)


def test_signing_in_to_ones_own_account_does_not_wipe_the_failures_against_another(client):
    UserFactory(username="ana")
    UserFactory(username="eve")
    _fail(client, "ana", 4, address=ATTACKER)
    assert _sign_in(client, "eve", PASSWORD, address=ATTACKER).status_code == 302
    client.logout()
    # Eve's own success reset neither ana's count nor her address's: one more guess locks both.
    response = _fail(client, "ana", 1, address=ATTACKER)
    assert response.status_code == 429
    assert _sign_in(client, "ana", PASSWORD, address=HOME).status_code == 429
    assert _sign_in(client, "eve", PASSWORD, address=ATTACKER).status_code == 429


def test_the_lock_page_echoes_no_markup_and_offers_the_password_reset(client):
    response = _fail(client, "<b>ana</b>", 5)
    html = response.content.decode()
    assert "<b>ana</b>" not in html
    assert reverse("password_reset") in html


def test_under_asgi_as_in_production_the_lock_page_is_the_same():
    """bin/serve runs ASGI, where axes' middleware calls the lock page without the view's response
    and without the credentials: the page still counts the minutes from the form's username."""
    UserFactory(username="ana")
    statuses, refused = async_to_sync(_sign_in_async)("ana")
    assert statuses == [200, 200, 200, 200, 429]
    assert refused.status_code == 429
    assert MESSAGE.format(15) in refused.content.decode()
    assert refused.cookies.get("sessionid") is None or not refused.cookies["sessionid"].value


async def _sign_in_async(username: str):
    client = AsyncClient()
    statuses = []
    for _ in range(5):
        response = await client.post(LOGIN, {"username": username, "password": "wrong"})
        statuses.append(response.status_code)
    refused = await client.post(LOGIN, {"username": username, "password": PASSWORD})
    return statuses, refused
