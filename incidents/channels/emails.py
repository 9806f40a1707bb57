"""Every e-mail the platform sends, one function per kind, each built from
templates/emails/<name>/{subject.txt,body.txt,body.html} in the recipient's language.

Kinds: the confirmation of a subscription or a follow (`confirmation_mail`), the link to manage
an address that is already subscribed (`manage_link_mail`), the notification of an incident
update (`update_notification`, then `personal_copy` per subscriber) and the daily overdue
reminder to an action item's owner (`overdue_reminder_mail`).

Notification headers follow RFC 5322 (Date, Message-ID = the delivery's idempotency key) and
RFC 8058 (one-click List-Unsubscribe over https). `mime_bytes` writes a notification as MIME text
from parts encoded once, because building each copy through Django's EmailMessage costs more than
the SMTP exchange itself (docs/subscriptions.md).
"""

import binascii
import email.policy
import secrets
from dataclasses import dataclass
from email.header import Header
from email.utils import formataddr, formatdate, parseaddr
from urllib.parse import urlsplit

from django.conf import settings
from django.core.mail import EmailMessage, EmailMultiAlternatives
from django.template.loader import render_to_string
from django.utils import translation

from incidents.models import Subscriber

from .content import UpdateContent

MANAGE_MARKER = "@@manage_url@@"
UNSUBSCRIBE_MARKER = "@@unsubscribe_url@@"
FOLLOW_MARKER = "@@follow_url@@"
CRLF = "\r\n"


def one_line(subject: str) -> str:
    # A header is one line: titles with line breaks must not split it (or inject headers).
    return " ".join(subject.split())


def _render(name: str, context: dict, *, language: str, html: bool = True) -> tuple[str, str, str]:
    """(subject, text body, HTML body or "") of templates/emails/<name>/ in the language."""
    with translation.override(language):
        subject = render_to_string(f"emails/{name}/subject.txt", context)
        text = render_to_string(f"emails/{name}/body.txt", context)
        html_body = render_to_string(f"emails/{name}/body.html", context) if html else ""
    return one_line(subject), text, html_body


# --- About a subscription (sent right after commit, not through the outbox) -------------------


def _subscription_mail(name: str, subscriber: Subscriber, extra: dict) -> EmailMultiAlternatives:
    context = {
        "subscriber": subscriber,
        "page_name": settings.STATUS_PAGE_NAME,
        "incident": subscriber.incident,
        "max_age_hours": settings.SUBSCRIBE_CONFIRM_MAX_AGE_SECONDS // 3600,
        **extra,
    }
    subject, text, html = _render(name, context, language=subscriber.language)
    message = EmailMultiAlternatives(
        subject, text, settings.DEFAULT_FROM_EMAIL, [subscriber.email], reply_to=[settings.EMAIL_REPLY_TO]
    )
    message.attach_alternative(html, "text/html")
    return message


def confirmation_mail(subscriber: Subscriber, *, confirm_url: str) -> EmailMultiAlternatives:
    """Asks to confirm a new subscription, or a follow of one incident (double opt-in)."""
    return _subscription_mail("confirm_subscription", subscriber, {"confirm_url": confirm_url})


def manage_link_mail(subscriber: Subscriber, *, manage_url: str) -> EmailMultiAlternatives:
    """Answers a subscribe request for an address already confirmed with its manage link."""
    return _subscription_mail("manage_subscription", subscriber, {"manage_url": manage_url})


# --- To the people who run the page -----------------------------------------------------------


def overdue_reminder_mail(owner, items: list) -> EmailMessage:
    """Lists an owner's overdue action items, in plain text and the page's own language."""
    context = {"owner": owner, "items": items, "site_url": settings.SITE_URL}
    subject, text, _html = _render("overdue_reminder", context, language=settings.LANGUAGE_CODE, html=False)
    return EmailMessage(subject, text, settings.DEFAULT_FROM_EMAIL, [owner.email])


# --- Incident update notifications ------------------------------------------------------------


@dataclass(frozen=True)
class RenderedEmail:
    """An update's notification in one language, with markers where the personal links go."""

    language: str
    subject: str
    text: str
    html: str
    # The Subject header as it goes on the wire (RFC 2047 encoded when not ASCII), once.
    subject_header: str


def update_notification(content: UpdateContent) -> RenderedEmail:
    """The notification of an update, rendered once per language for every subscriber."""
    context = {
        "content": content,
        "manage_url": MANAGE_MARKER,
        "unsubscribe_url": UNSUBSCRIBE_MARKER,
        "follow_url": FOLLOW_MARKER,
    }
    subject, text, html = _render("incident_update", context, language=content.language)
    subject = subject[:250]
    return RenderedEmail(
        language=content.language,
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


def personal_copy(
    rendered: RenderedEmail,
    *,
    to: str,
    message_key: str,
    manage_url: str,
    unsubscribe_url: str,
    follow_url: str,
) -> PersonalMail:
    """A subscriber's copy: the personal links in place of the markers, and its own headers."""
    headers = {
        "Date": formatdate(usegmt=True),
        "Message-ID": f"<{message_key}@{message_domain()}>",
        "List-Unsubscribe": f"<{unsubscribe_url}>",
        "List-ID": f"<notifications.{message_domain()}>",
        "Auto-Submitted": "auto-generated",
        "Content-Language": rendered.language,
    }
    # RFC 8058 one-click is defined for https URLs only; plain-http development sites get the
    # ordinary List-Unsubscribe link without the one-click promise.
    if unsubscribe_url.startswith("https://"):
        headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    links = {MANAGE_MARKER: manage_url, UNSUBSCRIBE_MARKER: unsubscribe_url, FOLLOW_MARKER: follow_url}
    return PersonalMail(
        to=to,
        rendered=rendered,
        text=_linked(rendered.text, links),
        html=_linked(rendered.html, links),
        headers=headers,
    )


def _linked(text: str, links: dict[str, str]) -> str:
    for marker, url in links.items():
        text = text.replace(marker, url)
    return text


MAX_HEADER_LINE = 78


def header_lines(name: str, value: str) -> str:
    """One header as plain ASCII, folded before a value too long for its line (RFC 5322 2.2.3).

    Values here are ASCII tokens such as `<https://…>`: folding at the whitespace after the colon
    keeps them whole, where Python's own folder would turn a long URL into RFC 2047 encoded words
    that mail software no longer reads as a List-Unsubscribe URL.
    """
    if len(name) + 2 + len(value) <= MAX_HEADER_LINE:
        return f"{name}: {value}"
    return f"{name}:{CRLF} {value}"


class NotificationMessage(EmailMultiAlternatives):
    """Django's message with our ASCII headers folded as `header_lines` folds them."""

    def message(self, *, policy=email.policy.default):
        msg = super().message(policy=policy.clone(refold_source="none"))
        for name in ("List-Unsubscribe", "List-ID"):
            value = msg[name]
            if value is not None and str(value).isascii():
                del msg[name]
                msg.set_raw(*msg.policy.header_source_parse(header_lines(name, str(value)).splitlines(True)))
        return msg


def django_message(mail: PersonalMail, connection=None) -> EmailMultiAlternatives:
    """The copy as a Django message, for backends other than SMTP."""
    message = NotificationMessage(
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
        *(header_lines(name, value) for name, value in mail.headers.items()),
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
