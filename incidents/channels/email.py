"""Email notifications: batches over one connection of the configured mail backend, kept open
from one batch to the next in a dispatch run; over SMTP pipelined where the server allows
(`smtp_pipelining`)."""

import email.policy
import smtplib
from collections.abc import Generator, Iterator
from contextlib import AbstractContextManager, suppress
from typing import cast

from django.conf import settings
from django.core.mail import mailers
from django.core.mail.backends.base import BaseEmailBackend
from django.core.mail.backends.smtp import EmailBackend as SMTPBackend

from incidents.channels.links import follow_token, manage_token, subscription_url
from incidents.models import Delivery

from .base import Result, update_of
from .content import ContentCache, content_key, render_content
from .emails import NotificationMail, RenderedEmail, update_notification
from .run_scoped import RunScoped
from .smtp_pipelining import Outgoing, send_all

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


_kept = RunScoped(close=lambda backend: backend.close())


def kept_mail_connection() -> AbstractContextManager[None]:
    """Mail batches inside the block (a worker's dispatch run) share one connection of the mail
    backend, opened by the first batch and closed at the end, or when it fails."""
    return _kept.kept()


def _still_open(backend: BaseEmailBackend) -> bool:
    """An SMTP connection kept since the last batch may have been closed by the server meanwhile."""
    if not isinstance(backend, SMTPBackend):
        return True
    if backend.connection is None:
        return False
    try:
        return backend.connection.noop()[0] == 250
    except OSError:
        return False


def _open_backend() -> BaseEmailBackend:
    """The kept connection if it still answers, else a new one (raises OSError if none opens)."""
    backend, _kept.value = _kept.value, None
    if backend is not None and _still_open(backend):
        return backend
    if backend is not None:
        with suppress(OSError):
            backend.close()
    backend = mailers.default  # a new backend instance (Django 6.1 mailers API)
    backend.open()
    return backend


def _release(backend: BaseEmailBackend, *, reusable: bool) -> None:
    if reusable and _kept.depth:
        _kept.value = backend
        return
    with suppress(OSError):
        backend.close()


def _refused(delivery: Delivery, error: Exception) -> Result:
    return Result(delivery, error=f"SMTP refused: {error}", permanent=_is_permanent(error))


def _through_backend(backend: BaseEmailBackend, delivery: Delivery, mail: NotificationMail) -> Result:
    """One mail through the backend's own sending; raises the errors that concern the connection."""
    try:
        backend.send_messages([mail])
    except OSError as error:
        if _is_connection_error(error):
            raise
        return _refused(delivery, error)
    except ValueError as error:
        return _invalid_address(delivery, error)
    return Result(delivery)


def _invalid_address(delivery: Delivery, error: ValueError) -> Result:
    return Result(delivery, error=f"Invalid address: {error}", permanent=True)  # no retry will help


class EmailChannel:
    batch_size_setting = "NOTIFY_BATCH_SIZE"

    def send(self, deliveries: list[Delivery]) -> Generator[Result]:
        try:
            backend = _open_backend()
        except OSError as error:
            for delivery in deliveries:
                yield Result(delivery, error=f"SMTP connection failed: {error}", permanent=False)
            return
        unreported = {delivery.pk: delivery for delivery in deliveries}
        finished = False
        try:
            for result in self._send_over(backend, deliveries):
                del unreported[result.delivery.pk]
                yield result
            finished = True
        except OSError as error:  # the connection, not one message: the rest waits for a retry
            for delivery in unreported.values():
                yield Result(delivery, error=f"SMTP connection lost: {error}", permanent=False)
        finally:
            # A batch left midway (the lease running out) may leave the server inside a message.
            _release(backend, reusable=finished)

    def _send_over(self, backend: BaseEmailBackend, deliveries: list[Delivery]) -> Iterator[Result]:
        if not isinstance(backend, SMTPBackend) or backend.connection is None:
            for delivery in deliveries:
                try:
                    mail = personalise(delivery, backend)
                except ValueError as error:
                    yield _invalid_address(delivery, error)
                    continue
                yield _through_backend(backend, delivery, mail)
            return
        smtp = backend.connection
        envelope_from = backend.prep_address(settings.DEFAULT_FROM_EMAIL)
        refused: list[Result] = []
        needs_smtputf8: list[tuple[Delivery, NotificationMail]] = []

        def outgoing() -> Iterator[Outgoing]:
            for delivery in deliveries:
                try:
                    mail = personalise(delivery, backend)
                    if not (mail.to[0].isascii() and envelope_from.isascii()):
                        needs_smtputf8.append((delivery, mail))  # the backend knows SMTPUTF8
                        continue
                    # The same MIME as Django's SMTP backend writes, without its parsing both
                    # addresses of every message again (a third of the cost of a mail).
                    message = mail.message(policy=email.policy.SMTP).as_bytes()
                except ValueError as error:
                    refused.append(_invalid_address(delivery, error))
                    continue
                yield Outgoing(key=delivery, sender=envelope_from, recipient=mail.to[0], message=message)

        for outcome in send_all(smtp, outgoing()):
            yield from _drained(refused)
            delivery = cast(Delivery, outcome.key)
            yield Result(delivery) if outcome.error is None else _refused(delivery, outcome.error)
        yield from _drained(refused)
        for delivery, mail in needs_smtputf8:
            yield _through_backend(backend, delivery, mail)


def _drained(results: list[Result]) -> Iterator[Result]:
    while results:
        yield results.pop(0)
