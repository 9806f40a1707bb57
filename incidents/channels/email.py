"""Email notifications: multipart text + HTML, one SMTP connection per batch.

The three templates in templates/emails/incident_update/ are rendered once per (update,
language) with markers where the personal links go; each subscriber's copy only replaces the
markers. Headers follow RFC 5322 (Date, Message-ID = the idempotency key) and RFC 8058
(one-click List-Unsubscribe over https).
"""

import smtplib
from collections.abc import Iterator
from dataclasses import dataclass
from email.utils import formatdate
from urllib.parse import urlsplit

from django.conf import settings
from django.core.mail import EmailMultiAlternatives, get_connection
from django.template.loader import render_to_string
from django.utils import translation

from incidents.models import Delivery
from incidents.services.subscriptions import manage_token, subscription_url

from .base import Result
from .content import ContentCache, content_key, render_content

MANAGE_MARKER = "@@manage_url@@"
UNSUBSCRIBE_MARKER = "@@unsubscribe_url@@"
# Errors that concern the connection rather than one message: the rest of the batch waits.
# SMTPException subclasses OSError, so these must be caught before per-message SMTP errors.
SMTP_CONNECTION_ERRORS = (smtplib.SMTPServerDisconnected, smtplib.SMTPConnectError, smtplib.SMTPHeloError)


def _is_connection_error(error: Exception) -> bool:
    return isinstance(error, SMTP_CONNECTION_ERRORS) or not isinstance(error, smtplib.SMTPException)


@dataclass(frozen=True)
class RenderedEmail:
    subject: str
    text: str
    html: str


_cache = ContentCache()


def rendered_email(delivery: Delivery) -> RenderedEmail:
    update, language = delivery.update, delivery.subscriber.language
    return _cache.get(content_key(update, language, "email"), lambda: _render(update, language))


def _render(update, language: str) -> RenderedEmail:
    content = render_content(update, language)
    context = {"content": content, "manage_url": MANAGE_MARKER, "unsubscribe_url": UNSUBSCRIBE_MARKER}
    with translation.override(language):
        subject = render_to_string("emails/incident_update/subject.txt", context)
        text = render_to_string("emails/incident_update/body.txt", context)
        html = render_to_string("emails/incident_update/body.html", context)
    # A header is one line: titles with line breaks must not split it (or inject headers).
    return RenderedEmail(subject=" ".join(subject.split())[:250], text=text, html=html)


def message_domain() -> str:
    return urlsplit(settings.SITE_URL).hostname or "localhost"


def build_message(delivery: Delivery, connection=None) -> EmailMultiAlternatives:
    """The subscriber's copy: the shared rendering with their links, headers and address."""
    subscriber = delivery.subscriber
    rendered = rendered_email(delivery)
    token = manage_token(subscriber)
    manage_url = subscription_url("manage", subscriber, token)
    unsubscribe_url = subscription_url("unsubscribe", subscriber, token)
    headers = {
        "Date": formatdate(usegmt=True),
        "Message-ID": f"<{delivery.idempotency_key}@{message_domain()}>",
        "List-Unsubscribe": f"<{unsubscribe_url}>",
        "List-ID": f"<notifications.{message_domain()}>",
        "Auto-Submitted": "auto-generated",
    }
    # RFC 8058 one-click is defined for https URLs only; plain-http development sites get the
    # ordinary List-Unsubscribe link without the one-click promise.
    if unsubscribe_url.startswith("https://"):
        headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message = EmailMultiAlternatives(
        subject=rendered.subject,
        body=rendered.text.replace(MANAGE_MARKER, manage_url).replace(UNSUBSCRIBE_MARKER, unsubscribe_url),
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[subscriber.email],
        reply_to=[settings.EMAIL_REPLY_TO],
        headers=headers,
        connection=connection,
    )
    html = rendered.html.replace(MANAGE_MARKER, manage_url).replace(UNSUBSCRIBE_MARKER, unsubscribe_url)
    message.attach_alternative(html, "text/html")
    return message


def _is_permanent(error: Exception) -> bool:
    """5xx answers about a recipient or the message will not change on retry."""
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        return all(code >= 500 for code, _msg in error.recipients.values())
    code = getattr(error, "smtp_code", None)
    return isinstance(code, int) and code >= 500 and not _is_connection_error(error)


class EmailChannel:
    batch_size_setting = "NOTIFY_BATCH_SIZE"

    def send(self, deliveries: list[Delivery]) -> Iterator[Result]:
        """Sends over one connection, yielding each result as soon as it is known."""
        connection = get_connection()
        try:
            connection.open()
        except OSError as error:
            for delivery in deliveries:
                yield Result(delivery, error=f"SMTP connection failed: {error}", permanent=False)
            return
        try:
            for index, delivery in enumerate(deliveries):
                try:
                    connection.send_messages([build_message(delivery, connection)])
                except OSError as error:
                    if _is_connection_error(error):
                        for rest in deliveries[index:]:
                            yield Result(rest, error=f"SMTP connection lost: {error}", permanent=False)
                        return
                    yield Result(delivery, error=f"SMTP refused: {error}", permanent=_is_permanent(error))
                except ValueError as error:
                    # Django refuses an address it cannot encode: no retry will help.
                    yield Result(delivery, error=f"Invalid address: {error}", permanent=True)
                else:
                    yield Result(delivery)
        finally:
            try:
                connection.close()
            except OSError:
                pass
