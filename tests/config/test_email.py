"""Mail for the password-reset page: the console by default, SMTP from the environment."""

import pytest
from django.core import mail
from django.urls import reverse

from config.settings.email import CONSOLE, SMTP, email_settings
from tests.config.settings_reader import read_settings
from tests.factories import UserFactory


def test_with_nothing_set_mail_goes_to_the_console():
    values = email_settings({})
    assert values["EMAIL_BACKEND"] == CONSOLE
    assert values["DEFAULT_FROM_EMAIL"] == "Spotter <spotter@localhost>"


def test_email_url_configures_smtp_with_starttls_and_decoded_credentials():
    values = email_settings(
        {"EMAIL_URL": "smtp://mailer%40example.com:p%40ss@mail.example.com:587"}
    )
    assert values["EMAIL_BACKEND"] == SMTP
    assert (values["EMAIL_HOST"], values["EMAIL_PORT"]) == ("mail.example.com", 587)
    assert (values["EMAIL_HOST_USER"], values["EMAIL_HOST_PASSWORD"]) == (
        "mailer@example.com",
        "p@ss",
    )
    assert values["EMAIL_USE_TLS"] is True and values["EMAIL_USE_SSL"] is False


def test_smtps_url_uses_ssl_on_465():
    values = email_settings({"EMAIL_URL": "smtps://u:p@mail.example.com"})
    assert (values["EMAIL_PORT"], values["EMAIL_USE_SSL"], values["EMAIL_USE_TLS"]) == (
        465,
        True,
        False,
    )


def test_email_host_and_friends_configure_smtp():
    values = email_settings(
        {
            "EMAIL_HOST": "relay.local",
            "EMAIL_PORT": "2525",
            "EMAIL_USE_TLS": "0",
            "DEFAULT_FROM_EMAIL": "c@x.org",
        }
    )
    assert values["EMAIL_BACKEND"] == SMTP
    assert (values["EMAIL_HOST"], values["EMAIL_PORT"], values["EMAIL_USE_TLS"]) == (
        "relay.local",
        2525,
        False,
    )
    assert values["DEFAULT_FROM_EMAIL"] == "c@x.org"


def test_a_malformed_email_url_is_refused_by_name():
    with pytest.raises(ValueError, match="EMAIL_URL must look like smtp://"):
        email_settings({"EMAIL_URL": "http://mail.example.com"})


def test_a_fresh_process_reads_the_email_settings_from_the_environment():
    base = {"DJANGO_SETTINGS_MODULE": "config.settings.base"}
    plain = read_settings(base, "EMAIL_BACKEND")
    assert plain["EMAIL_BACKEND"] == CONSOLE
    smtp = read_settings(
        {**base, "EMAIL_URL": "smtp://u:p@mail.example.com:587"},
        "EMAIL_BACKEND",
        "EMAIL_HOST",
        "EMAIL_PORT",
    )
    assert smtp == {"EMAIL_BACKEND": SMTP, "EMAIL_HOST": "mail.example.com", "EMAIL_PORT": 587}


@pytest.mark.django_db
def test_the_password_reset_page_sends_the_link_to_the_outbox(client):
    UserFactory(username="ana", email="ana@example.com")
    response = client.post(reverse("password_reset"), {"email": "ana@example.com"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["ana@example.com"]
    assert "/accounts/reset/" in message.body


@pytest.mark.django_db
def test_with_the_console_backend_the_reset_mail_is_printed(client, settings, capsys):
    settings.EMAIL_BACKEND = CONSOLE
    UserFactory(username="ana", email="ana@example.com")
    client.post(reverse("password_reset"), {"email": "ana@example.com"})
    printed = capsys.readouterr().out
    assert "To: ana@example.com" in printed and "/accounts/reset/" in printed
