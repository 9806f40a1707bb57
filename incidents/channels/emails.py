"""Every e-mail the platform sends, each built from
templates/emails/<name>/{subject.txt,body.txt,body.html} in the recipient's language.

Notification headers follow RFC 5322 (Date, Message-ID = the delivery's idempotency key) and
RFC 8058 (one-click List-Unsubscribe over https).
"""

import binascii
import email.message
import email.policy
import secrets
from dataclasses import dataclass
from email.utils import formatdate
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.core.mail import EmailMessage, EmailMultiAlternatives
from django.core.mail.backends.base import BaseEmailBackend
from django.template.loader import render_to_string
from django.utils import translation

from incidents.models import Subscriber

from .content import UpdateContent

MANAGE_MARKER = "@@manage_url@@"
UNSUBSCRIBE_MARKER = "@@unsubscribe_url@@"
FOLLOW_MARKER = "@@follow_url@@"


def _render(name: str, context: dict, *, language: str, html: bool = True) -> tuple[str, str, str]:
    """(subject, text body, HTML body or "") of templates/emails/<name>/ in the language."""
    with translation.override(language):
        subject = render_to_string(f"emails/{name}/subject.txt", context)
        text = render_to_string(f"emails/{name}/body.txt", context)
        html_body = render_to_string(f"emails/{name}/body.html", context) if html else ""
    # A header is one line: titles with line breaks must not split it (or inject headers).
    return " ".join(subject.split()), text, html_body


def subscription_mail(name: str, subscriber: Subscriber, **links: str) -> EmailMultiAlternatives:
    """`confirm_subscription` (double opt-in, with `confirm_url`) or `manage_subscription` (to an
    address already confirmed, with `manage_url`)."""
    context = {
        "subscriber": subscriber,
        "page_name": settings.STATUS_PAGE_NAME,
        "incident": subscriber.incident,
        "max_age_hours": settings.SUBSCRIBE_CONFIRM_MAX_AGE_SECONDS // 3600,
        **links,
    }
    subject, text, html = _render(name, context, language=subscriber.language)
    message = EmailMultiAlternatives(
        subject, text, settings.DEFAULT_FROM_EMAIL, [subscriber.email], reply_to=[settings.EMAIL_REPLY_TO]
    )
    message.attach_alternative(html, "text/html")
    return message


def overdue_reminder_mail(owner: AbstractUser, items: list) -> EmailMessage:
    """Lists an owner's overdue action items, in plain text and the page's own language."""
    context = {"owner": owner, "items": items, "site_url": settings.SITE_URL}
    subject, text, _html = _render("overdue_reminder", context, language=settings.LANGUAGE_CODE, html=False)
    return EmailMessage(subject, text, settings.DEFAULT_FROM_EMAIL, [owner.email])


class Prefolded(email.policy.Compat32):
    """Writes each header as it was set: the headers every copy shares are folded once per
    update and language (by the SMTP policy, RFC 2047 where not ASCII), a copy's own need no
    folding. Compat32 also reads a header back as the string it is, where the default policy
    parses it again each time the generator asks for a part's content type."""

    def fold(self, name: str, value: str) -> str:
        return f"{name}: {self.linesep.join(value.splitlines())}{self.linesep}"

    def fold_binary(self, name: str, value: str) -> bytes:
        return self.fold(name, value).encode("ascii")


PREFOLDED = Prefolded(linesep="\r\n", mangle_from_=False)


@dataclass(frozen=True)
class RenderedEmail:
    """An update's notification in one language, with markers where the personal links go:
    its texts, and its message (the headers every copy shares and the parts' own headers)."""

    subject: str
    text: str
    html: str
    message: email.message.EmailMessage


def message_domain() -> str:
    return urlsplit(settings.SITE_URL).hostname or "localhost"


def _folded(name: str, value: str) -> str:
    return email.policy.SMTP.fold(name, value).removeprefix(f"{name}: ").removesuffix("\r\n")


def _with_headers(
    headers: dict[str, str], payload: str | list[email.message.Message | str] = ""
) -> email.message.EmailMessage:
    message = email.message.EmailMessage(policy=PREFOLDED)
    for name, value in headers.items():
        message.set_raw(name, value)
    message.set_payload(payload)
    return message


def update_notification(content: UpdateContent) -> RenderedEmail:
    context = {
        "content": content,
        "manage_url": MANAGE_MARKER,
        "unsubscribe_url": UNSUBSCRIBE_MARKER,
        "follow_url": FOLLOW_MARKER,
    }
    subject, text, html = _render("incident_update", context, language=content.language)
    shared = {
        "Subject": subject[:250],
        "From": settings.DEFAULT_FROM_EMAIL,
        "Reply-To": settings.EMAIL_REPLY_TO,
        "List-ID": f"<notifications.{message_domain()}>",
        "Auto-Submitted": "auto-generated",
        "Content-Language": content.language,
        "MIME-Version": "1.0",
    }
    headers = {name: _folded(name, value) for name, value in shared.items()}
    # Quoted-printable writes "=" as "=3D", so a boundary starting with "==" cannot occur in a part.
    headers["Content-Type"] = f'multipart/alternative; boundary="==notify-{secrets.token_hex(8)}=="'
    parts: list[email.message.Message | str] = [
        _with_headers(
            {
                "Content-Type": f'text/{subtype}; charset="utf-8"',
                "Content-Transfer-Encoding": "quoted-printable",
            }
        )
        for subtype in ("plain", "html")
    ]
    return RenderedEmail(subject=subject[:250], text=text, html=html, message=_with_headers(headers, parts))


def _unfolded(name: str, value: str) -> str:
    """An ASCII value as written, on a line of its own when too long (RFC 5322 2.2.3): the
    policy's folding would turn a long List-Unsubscribe URL into RFC 2047 encoded words, which
    mail software no longer reads as a URL."""
    return value if len(name) + 2 + len(value) <= 78 else f"\r\n {value}"


def _quoted_printable(text: str) -> str:
    # binascii's encoder: the email package's own is pure Python and costs more than the SMTP exchange.
    return binascii.b2a_qp("\r\n".join(text.splitlines()).encode(), istext=True).decode("ascii")


def _linked(text: str, links: dict[str, str]) -> str:
    for marker, url in links.items():
        text = text.replace(marker, url)
    return text


class NotificationMail(EmailMultiAlternatives):
    """A subscriber's copy of an update's notification, for every mail backend. Its MIME is a
    copy of the update's standard-library message, with this copy's own headers and texts."""

    def __init__(
        self,
        rendered: RenderedEmail,
        *,
        to: str,
        message_key: str,
        manage_url: str,
        unsubscribe_url: str,
        follow_url: str,
        connection: BaseEmailBackend | None = None,
    ) -> None:
        headers = {
            "Date": formatdate(usegmt=True),
            "Message-ID": f"<{message_key}@{message_domain()}>",
            "List-Unsubscribe": f"<{unsubscribe_url}>",
        }
        # RFC 8058 one-click is defined for https URLs only; plain-http development sites get the
        # ordinary List-Unsubscribe link without the one-click promise.
        if unsubscribe_url.startswith("https://"):
            headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
        links = {MANAGE_MARKER: manage_url, UNSUBSCRIBE_MARKER: unsubscribe_url, FOLLOW_MARKER: follow_url}
        super().__init__(
            subject=rendered.subject,
            body=_linked(rendered.text, links),
            from_email=settings.DEFAULT_FROM_EMAIL,
            to=[to],
            reply_to=[settings.EMAIL_REPLY_TO],
            headers=headers,
            alternatives=[(_linked(rendered.html, links), "text/html")],
            connection=connection,
        )
        self.rendered = rendered

    def message(self, *, policy: email.policy.Policy | None = None) -> email.message.EmailMessage:
        """A copy of the update's message in the line ends of `policy`, which folds nothing."""
        shared, texts = self.rendered.message, (str(self.body), str(self.alternatives[0][0]))
        parts: list[email.message.Message | str] = [
            _with_headers(dict(part.raw_items()), _quoted_printable(text))
            for part, text in zip(shared.get_payload(), texts, strict=True)
        ]
        to = self.to[0]
        own = {name: _unfolded(name, value) for name, value in self.extra_headers.items()}
        message = _with_headers(
            {**dict(shared.raw_items()), **own, "To": to if to.isascii() else _folded("To", to)}, parts
        )
        message.policy = PREFOLDED.clone(linesep=(policy or email.policy.default).linesep)
        return message
