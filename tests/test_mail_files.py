"""Development mail: each message one .eml file that any mail program, or a person, can read."""

import email
import email.policy
import os
import subprocess
import sys
from pathlib import Path

from django.core.mail import EmailMultiAlternatives

from statuspage.mail_files import EmailFileBackend

TOKEN = "t0k3n" * 30
ROOT = Path(__file__).resolve().parent.parent


def send(folder, *messages) -> int:
    return EmailFileBackend(file_path=str(folder), alias="default").send_messages(list(messages))


def confirmation() -> EmailMultiAlternatives:
    link = f"http://127.0.0.1:8001/ru/subscribe/confirm/{TOKEN}/"
    message = EmailMultiAlternatives(
        "Подтвердите подписку на Acme Status",
        f"Кто-то, вероятно вы, подписался.\n\nПодтвердить подписку: {link}\n",
        "Acme Status <status@acme.example>",
        ["ops@example.com"],
    )
    message.attach_alternative(f'<p><a href="{link}">Подтвердить</a></p>', "text/html")
    return message


def test_each_mail_is_its_own_eml_file_read_back_by_the_email_package(tmp_path):
    assert send(tmp_path, confirmation(), confirmation()) == 2

    files = sorted(tmp_path.glob("*.eml"))
    assert len(files) == 2
    parsed = email.message_from_bytes(files[0].read_bytes(), policy=email.policy.default)
    assert parsed["Subject"] == "Подтвердите подписку на Acme Status"
    assert parsed["To"] == "ops@example.com"
    assert f"/ru/subscribe/confirm/{TOKEN}/" in parsed.get_body(("plain",)).get_content()
    assert "Подтвердить" in parsed.get_body(("html",)).get_content()


def test_the_file_itself_shows_the_text_and_an_unbroken_link(tmp_path):
    send(tmp_path, confirmation())

    raw = next(tmp_path.glob("*.eml")).read_text(encoding="utf-8")

    # Neither quoted-printable nor base64: the link can be copied from the file as it is.
    assert f"http://127.0.0.1:8001/ru/subscribe/confirm/{TOKEN}/\n" in raw
    assert "Кто-то, вероятно вы, подписался." in raw
    assert "quoted-printable" not in raw and "base64" not in raw


def test_no_file_is_left_half_written_and_a_mail_without_recipients_is_not_saved(tmp_path):
    empty = EmailMultiAlternatives("Nobody", "Text", "status@acme.example", [])

    assert send(tmp_path, empty) == 0
    send(tmp_path, confirmation())

    assert [p.suffix for p in tmp_path.iterdir()] == [".eml"]


def test_a_local_run_with_no_backend_chosen_saves_each_mail_as_a_file_in_the_var_directory(tmp_path):
    unset = ("EMAIL_BACKEND", "SECRET_KEY", "DEBUG", "LOCAL_RUN")
    environment = {k: v for k, v in os.environ.items() if k not in unset}
    environment.update(STATUSPAGE_VAR_DIR=str(tmp_path))
    code = "from django.core.mail import send_mail; send_mail('Hello', 'Text', 'a@acme.example', ['b@example.com'])"

    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert done.returncode == 0, done.stderr
    [saved] = (tmp_path / "mail").glob("*.eml")
    assert email.message_from_bytes(saved.read_bytes(), policy=email.policy.default)["Subject"] == "Hello"
