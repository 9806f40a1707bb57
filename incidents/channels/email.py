"""Email notifications: multipart text + HTML, one SMTP connection per batch.

The three templates in templates/emails/incident_update/ are rendered once per (update,
language) with markers where the personal links go; each subscriber's copy only replaces the
markers. Headers follow RFC 5322 (Date, Message-ID = the idempotency key) and RFC 8058
(one-click List-Unsubscribe over https).

With Django's SMTP backend the MIME text is assembled here, from parts encoded once, and
written to the backend's open connection: building each copy through Django's EmailMessage
costs about 9 ms, far more than the SMTP exchange itself. Other backends (console, file,
locmem in tests) get an EmailMultiAlternatives with the same headers and bodies.
"""

import binascii
import secrets
import smtplib
from collections.abc import Iterator
from dataclasses import dataclass
from email.header import Header
from email.utils import formataddr, formatdate, parseaddr
from urllib.parse import urlsplit

from django.conf import settings
from django.core.mail import EmailMultiAlternatives, mailers
from django.core.mail.backends.smtp import EmailBackend as SMTPBackend
from django.template.loader import render_to_string
from django.utils import translation

from incidents.models import Delivery
from incidents.services.subscriptions import manage_token, subscription_url

from .base import Result
from .content import ContentCache, content_key, render_content

MANAGE_MARKER = "@@manage_url@@"
UNSUBSCRIBE_MARKER = "@@unsubscribe_url@@"
CRLF = "\r\n"
# Errors that concern the connection rather than one message: the rest of the batch waits.
# SMTPException subclasses OSError, so these must be told apart from per-message SMTP errors.
SMTP_CONNECTION_ERRORS = (smtplib.SMTPServerDisconnected, smtplib.SMTPConnectError, smtplib.SMTPHeloError)


def _is_connection_error(error: Exception) -> bool:
    return isinstance(error, SMTP_CONNECTION_ERRORS) or not isinstance(error, smtplib.SMTPException)


@dataclass(frozen=True)
class RenderedEmail:
    language: str
    subject: str
    text: str
    html: str
    # The Subject header as it goes on the wire (RFC 2047 encoded when not ASCII), once.
    subject_header: str


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
    subject = " ".join(subject.split())[:250]
    return RenderedEmail(
        language=language,
        subject=subject,
        text=text,
        html=html,
        subject_header=subject if subject.isascii() else Header(subject, "utf-8").encode(linesep=CRLF),
    )


def message_domain() -> str:
    return urlsplit(settings.SITE_URL).hostname or "localhost"


@dataclass(frozen=True)
class PersonalMail:
    """One subscriber's copy, before it is turned into MIME."""

    to: str
    rendered: RenderedEmail
    text: str
    html: str
    headers: dict[str, str]


def personalise(delivery: Delivery) -> PersonalMail:
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
        "Content-Language": rendered.language,
    }
    # RFC 8058 one-click is defined for https URLs only; plain-http development sites get the
    # ordinary List-Unsubscribe link without the one-click promise.
    if unsubscribe_url.startswith("https://"):
        headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    return PersonalMail(
        to=subscriber.email,
        rendered=rendered,
        text=rendered.text.replace(MANAGE_MARKER, manage_url).replace(UNSUBSCRIBE_MARKER, unsubscribe_url),
        html=rendered.html.replace(MANAGE_MARKER, manage_url).replace(UNSUBSCRIBE_MARKER, unsubscribe_url),
        headers=headers,
    )


def build_message(delivery: Delivery, connection=None) -> EmailMultiAlternatives:
    """The subscriber's copy as a Django message, for backends other than SMTP."""
    mail = personalise(delivery)
    message = EmailMultiAlternatives(
        subject=mail.rendered.subject,
        body=mail.text,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[mail.to],
        reply_to=[settings.EMAIL_REPLY_TO],
        headers=mail.headers,
        connection=connection,
    )
    message.attach_alternative(mail.html, "text/html")
    return message


def _address_header(value: str) -> str:
    name, address = parseaddr(value)
    return formataddr((name, address), charset="utf-8")


def _quoted_printable(text: str) -> str:
    body = CRLF.join(text.splitlines()).encode("utf-8")
    return binascii.b2a_qp(body, istext=True).decode("ascii")


@dataclass(frozen=True)
class Sender:
    """The From and Reply-To headers and the envelope sender, encoded once per batch."""

    from_header: str
    reply_to_header: str
    envelope_from: str

    @classmethod
    def from_settings(cls) -> "Sender":
        return cls(
            from_header=_address_header(settings.DEFAULT_FROM_EMAIL),
            reply_to_header=_address_header(settings.EMAIL_REPLY_TO),
            envelope_from=parseaddr(settings.DEFAULT_FROM_EMAIL)[1],
        )


def mime_bytes(mail: PersonalMail, sender: Sender | None = None) -> bytes:
    """RFC 5322 + MIME multipart/alternative, both parts UTF-8 quoted-printable."""
    sender = sender or Sender.from_settings()
    # Quoted-printable writes "=" as "=3D", so a boundary starting with "==" cannot occur in a part.
    boundary = f"==notify-{secrets.token_hex(8)}=="
    lines = [
        f"Subject: {mail.rendered.subject_header}",
        f"From: {sender.from_header}",
        f"To: {mail.to}",
        f"Reply-To: {sender.reply_to_header}",
        *(f"{name}: {value}" for name, value in mail.headers.items()),
        "MIME-Version: 1.0",
        f'Content-Type: multipart/alternative; boundary="{boundary}"',
        "",
    ]
    for subtype, body in (("plain", mail.text), ("html", mail.html)):
        lines += [
            f"--{boundary}",
            f'Content-Type: text/{subtype}; charset="utf-8"',
            "Content-Transfer-Encoding: quoted-printable",
            "",
            _quoted_printable(body),
        ]
    lines += [f"--{boundary}--", ""]
    return CRLF.join(lines).encode("ascii")


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
        backend = mailers.default  # a new backend instance (Django 6.1 mailers API)
        try:
            backend.open()
        except OSError as error:
            for delivery in deliveries:
                yield Result(delivery, error=f"SMTP connection failed: {error}", permanent=False)
            return
        sender = Sender.from_settings()
        try:
            for index, delivery in enumerate(deliveries):
                try:
                    self._send_one(backend, delivery, sender)
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
            try:
                backend.close()
            except OSError:
                pass

    @staticmethod
    def _send_one(backend, delivery: Delivery, sender: Sender) -> None:
        address = delivery.subscriber.email
        if isinstance(backend, SMTPBackend) and backend.connection is not None and address.isascii():
            message = mime_bytes(personalise(delivery), sender)
            backend.connection.sendmail(sender.envelope_from, [address], message)
        else:
            backend.send_messages([build_message(delivery, backend)])
