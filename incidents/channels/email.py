"""Email notifications: one connection of the configured mail backend per batch."""

import email.policy
import smtplib
from collections.abc import Generator
from contextlib import suppress

from django.conf import settings
from django.core.mail import mailers
from django.core.mail.backends.base import BaseEmailBackend
from django.core.mail.backends.smtp import EmailBackend as SMTPBackend

from incidents.channels.links import follow_token, manage_token, subscription_url
from incidents.models import Delivery

from .base import Result, update_of
from .content import ContentCache, content_key, render_content
from .emails import NotificationMail, RenderedEmail, update_notification

# Errors that concern the connection rather than one message: the rest of the batch waits.
# SMTPException subclasses OSError, so these must be told apart from per-message SMTP errors.
SMTP_CONNECTION_ERRORS = (smtplib.SMTPServerDisconnected, smtplib.SMTPConnectError, smtplib.SMTPHeloError)


def _is_connection_error(error: Exception) -> bool:
    return isinstance(error, SMTP_CONNECTION_ERRORS) or not isinstance(error, smtplib.SMTPException)


_cache = ContentCache()


def rendered_email(delivery: Delivery) -> RenderedEmail:
    update, language = update_of(delivery), delivery.subscriber.language
    return _cache.get(
        content_key(update, language, "email"), lambda: update_notification(render_content(update, language))
    )


def personalise(delivery: Delivery, backend: BaseEmailBackend | None = None) -> NotificationMail:
    subscriber = delivery.subscriber
    token = manage_token(subscriber)
    return NotificationMail(
        rendered_email(delivery),
        to=subscriber.email,
        message_key=delivery.idempotency_key,
        manage_url=subscription_url("manage", subscriber, token),
        unsubscribe_url=subscription_url("unsubscribe", subscriber, token),
        follow_url=subscription_url(
            "follow-from-mail", subscriber, follow_token(subscriber, update_of(delivery).incident)
        ),
        connection=backend,
    )


def _is_permanent(error: Exception) -> bool:
    """5xx answers about a recipient or the message will not change on retry."""
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        return all(code >= 500 for code, _msg in error.recipients.values())
    code = getattr(error, "smtp_code", None)
    return isinstance(code, int) and code >= 500 and not _is_connection_error(error)


class EmailChannel:
    batch_size_setting = "NOTIFY_BATCH_SIZE"

    def send(self, deliveries: list[Delivery]) -> Generator[Result]:
        backend = mailers.default  # a new backend instance (Django 6.1 mailers API)
        try:
            backend.open()
        except OSError as error:
            for delivery in deliveries:
                yield Result(delivery, error=f"SMTP connection failed: {error}", permanent=False)
            return
        smtp = backend if isinstance(backend, SMTPBackend) else None
        envelope_from = smtp.prep_address(settings.DEFAULT_FROM_EMAIL) if smtp else ""
        try:
            for index, delivery in enumerate(deliveries):
                try:
                    mail = personalise(delivery, backend)
                    if smtp and smtp.connection is not None and mail.to[0].isascii():
                        # The same MIME as Django's SMTP backend writes, without its parsing both
                        # addresses of every message again (a third of the cost of a mail).
                        smtp.connection.sendmail(
                            envelope_from, mail.to, mail.message(policy=email.policy.SMTP).as_bytes()
                        )
                    else:
                        backend.send_messages([mail])
                except OSError as error:
                    if _is_connection_error(error):
                        for rest in deliveries[index:]:
                            yield Result(rest, error=f"SMTP connection lost: {error}", permanent=False)
                        return
                    yield Result(delivery, error=f"SMTP refused: {error}", permanent=_is_permanent(error))
                except ValueError as error:
                    # An address that cannot be encoded: no retry will help.
                    yield Result(delivery, error=f"Invalid address: {error}", permanent=True)
                else:
                    yield Result(delivery)
        finally:
            with suppress(OSError):
                backend.close()
