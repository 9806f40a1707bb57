"""Debug pages and error mails never show a password, also inside URL-shaped settings."""

import logging
import sys

import pytest
from django.core import mail
from django.test import RequestFactory
from django.views.debug import get_default_exception_reporter_filter, technical_500_response

from incidents.security.error_reports import masked

URL_SETTINGS = {
    "DATABASE_URL": "postgres://statuspage:s3cret-db@db.internal:5432/statuspage",
    "REDIS_URL": "redis://:s3cret-redis@cache.internal:6379/0",
    "CELERY_BROKER_URL": "redis://default:s3cret-broker@cache.internal:6379/1",
    "SOME_SERVICE": "amqp://guest:s3cret-amqp@mq.internal//",
    "WEBHOOK_TARGET": "https://hooks.example.com/in?token=s3cret-token&x=1",
}


@pytest.fixture
def secrets_in_settings(settings):
    for name, value in URL_SETTINGS.items():
        setattr(settings, name, value)
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "redis://:s3cret-location@cache.internal:6379/2",
        }
    }
    return settings


def failing_page(url: str) -> str:
    """The debug page of an exception raised with a database URL in a local variable and in its
    message, for a request whose environment holds the URL too (as runserver passes it)."""
    request = RequestFactory().get("/boom/", DATABASE_URL=URL_SETTINGS["DATABASE_URL"])
    try:
        connection_url = url  # noqa: F841 - a local the debug page lists
        raise RuntimeError(f"cannot reach {url}")
    except RuntimeError:
        return technical_500_response(request, *sys.exc_info()).content.decode()


def test_the_settings_an_error_report_shows_mask_every_url_password(secrets_in_settings):
    shown = repr(get_default_exception_reporter_filter().get_safe_settings())
    assert "s3cret" not in shown
    assert "postgres://statuspage:********@db.internal:5432/statuspage" in shown  # the rest stays useful
    assert "cache.internal:6379" in shown


def test_the_debug_page_shows_no_password_anywhere(secrets_in_settings):
    page = failing_page(URL_SETTINGS["DATABASE_URL"])
    assert "RuntimeError" in page  # it is the debug page
    assert "s3cret" not in page
    assert "db.internal" in page


def test_an_error_mail_shows_no_password(secrets_in_settings, client, settings):
    settings.DEBUG = False
    settings.ADMINS = ["ops@example.com"]

    request = RequestFactory().get("/boom/", DATABASE_URL=URL_SETTINGS["DATABASE_URL"])
    try:
        raise RuntimeError(f"cannot reach {URL_SETTINGS['REDIS_URL']}")
    except RuntimeError:
        logging.getLogger("django.request").error(
            "Internal Server Error: /boom/", exc_info=True, extra={"status_code": 500, "request": request}
        )
    assert mail.outbox, "no error mail was sent"
    message = mail.outbox[-1]
    everything = message.body + "".join(str(content) for content, _kind in message.alternatives)
    assert "RuntimeError" in everything
    assert "s3cret" not in everything


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("postgres://u:s3cret@h/db", "postgres://u:********@h/db"),
        ("redis://:p@ss/w0rd@h:6379", "redis://:********@h:6379"),
        (
            "see https://user:pw@example.com/x and amqp://g:pw2@mq//",
            "see https://user:********@example.com/x and amqp://g:********@mq//",
        ),
        ("https://example.com/hook?api_key=abc&x=1", "https://example.com/hook?api_key=********&x=1"),
        ("https://example.com/path", "https://example.com/path"),
        ("user@example.com", "user@example.com"),
    ],
)
def test_masking_keeps_everything_but_the_password(text, expected):
    assert masked(text) == expected
