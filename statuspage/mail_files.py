"""The development mail backend: each message saved as one readable .eml file.

Django's file backend writes quoted-printable, breaking a long link across lines with `=`; here
the text is written as is, so a link can be copied or clicked.
"""

import datetime as dt
import email.policy
import os
import re
import uuid
from pathlib import Path

from django.core.mail import InvalidMailer
from django.core.mail.backends.base import BaseEmailBackend

# 8-bit text with lines as long as SMTP allows: nothing gets quoted-printable or folded.
READABLE = email.policy.SMTP.clone(max_line_length=998, cte_type="8bit", utf8=True, linesep="\n")
NOT_IN_NAME = re.compile(r"[^a-z0-9]+")


class EmailFileBackend(BaseEmailBackend):
    def __init__(self, *, file_path: str | None = None, **kwargs):
        super().__init__(**kwargs)
        if not file_path:
            raise InvalidMailer("OPTIONS must define 'file_path'.", alias=self.alias)
        self.folder = Path(file_path).resolve()
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise InvalidMailer(f"Cannot create {self.folder}: {error}", alias=self.alias) from None

    def send_messages(self, email_messages) -> int:
        addressed = [message for message in email_messages if message.recipients()]
        for message in addressed:
            self._save(message)
        return len(addressed)

    def _save(self, message) -> Path:
        body = message.message(policy=READABLE).as_bytes(policy=READABLE)
        stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%S.%fZ")
        topic = NOT_IN_NAME.sub("-", str(message.subject).lower()).strip("-")[:40] or "mail"
        path = self.folder / f"{stamp}-{topic}-{uuid.uuid4().hex[:6]}.eml"
        # Written under another name first: whoever watches the folder never reads half a mail.
        partial = path.with_suffix(".part")
        partial.write_bytes(body)
        os.replace(partial, path)
        return path
