"""`make run` keeps serving pages when the worker or the scheduler stops: they are started
again after a growing pause, and only the web server stopping stops everything."""

import importlib.util
import io
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.test_settings import run_manage

pytestmark = pytest.mark.system

PATH = Path(__file__).resolve().parent.parent / "scripts" / "run_platform.py"
spec = importlib.util.spec_from_file_location("run_platform", PATH)
run_platform = importlib.util.module_from_spec(spec)
spec.loader.exec_module(run_platform)


class FakeProcess:
    """A child process: running until a test ends it with an exit code."""

    def __init__(self):
        self.code = None

    def poll(self):
        return self.code


@pytest.fixture
def started():
    return []


@pytest.fixture
def children(started):
    def start(child):
        process = FakeProcess()
        started.append((child.name, process))
        return process

    made = [
        run_platform.Child("web", ["runserver"], essential=True),
        run_platform.Child("worker", ["celery", "worker"]),
        run_platform.Child("scheduler", ["celery", "beat"]),
    ]
    for child in made:
        child.process = start(child)
    return made, start


def test_a_worker_that_dies_is_started_again_while_the_web_server_keeps_running(children, started):
    made, start = children
    web, worker, _scheduler = made
    web_process = web.process
    worker.process.code = 1  # the broker went away

    assert run_platform.tend(made, start=start, now=100.0) is None  # nothing stops
    assert worker.process is None
    assert run_platform.tend(made, start=start, now=100.5) is None
    assert worker.process is None  # still pausing
    assert run_platform.tend(made, start=start, now=101.0) is None
    assert started[-1][0] == "worker" and worker.process is started[-1][1]
    assert web.process is web_process and web_process.poll() is None


def test_pauses_grow_while_the_worker_keeps_failing_and_reset_once_it_runs(children, started):
    made, start = children
    worker = made[1]
    now, pauses = 0.0, []
    for _ in range(7):
        worker.process.code = 1
        run_platform.tend(made, start=start, now=now)
        pauses.append(worker.restart_at - now)
        now = worker.restart_at
        run_platform.tend(made, start=start, now=now)
    assert pauses == [1, 2, 4, 8, 16, 30, 30]
    run_platform.tend(made, start=start, now=now + run_platform.HEALTHY_AFTER_SECONDS)
    worker.process.code = 1
    run_platform.tend(made, start=start, now=now + run_platform.HEALTHY_AFTER_SECONDS + 1)
    assert worker.restart_at - (now + run_platform.HEALTHY_AFTER_SECONDS + 1) == 1


def test_the_scheduler_is_started_again_too(children, started):
    made, start = children
    made[2].process.code = -9
    run_platform.tend(made, start=start, now=0.0)
    run_platform.tend(made, start=start, now=1.0)
    assert [name for name, _process in started].count("scheduler") == 2


def test_the_web_server_stopping_stops_the_platform(children):
    made, start = children
    made[0].process.code = 1
    assert run_platform.tend(made, start=start, now=0.0) == "web"


def test_the_development_server_closes_its_database_connections():
    web = run_platform.platform(8000)[0]
    assert web.essential and web.env["DATABASE_CONN_MAX_AGE"] == "0"
    assert all("DATABASE_CONN_MAX_AGE" not in (child.env or {}) for child in run_platform.platform(8000)[1:])


def test_the_connection_age_comes_from_the_environment():
    result = run_manage(
        "shell",
        "--no-imports",
        "-c",
        "from django.conf import settings; print(settings.DATABASES['default']['CONN_MAX_AGE'])",
        DATABASE_URL="postgres://u:p@127.0.0.1:1/none",
        DATABASE_CONN_MAX_AGE="0",
    )
    assert result.stdout.strip().splitlines()[-1] == "0", result.stderr
    result = run_manage(
        "shell",
        "--no-imports",
        "-c",
        "from django.conf import settings; print(settings.DATABASES['default']['CONN_MAX_AGE'])",
        DATABASE_URL="postgres://u:p@127.0.0.1:1/none",
    )
    assert result.stdout.strip().splitlines()[-1] == "60", result.stderr


def test_make_run_with_debug_off_is_still_a_local_run_that_starts_without_a_secret(monkeypatch, tmp_path):
    monkeypatch.setenv("DEBUG", "0")
    monkeypatch.delenv("SECRET_KEY", raising=False)
    web, *_workers, scheduler = run_platform.platform(8001)
    for child in (web, scheduler):
        result = run_manage("check", **{**child.env, "STATUSPAGE_VAR_DIR": str(tmp_path)})
        assert result.returncode == 0, (child.name, result.stderr)
    assert (tmp_path / "secret_key").exists()


# --- the address, the start-up message and the mail `make run` prints ---


def test_site_url_follows_the_port_unless_it_is_set(monkeypatch):
    monkeypatch.delenv("SITE_URL", raising=False)
    assert all(child.env["SITE_URL"] == "http://127.0.0.1:8001" for child in run_platform.platform(8001))

    monkeypatch.setenv("SITE_URL", "https://status.example.com/")
    assert all(child.env["SITE_URL"] == "https://status.example.com" for child in run_platform.platform(8001))


def test_links_in_feeds_and_pages_use_the_port_make_run_was_given(monkeypatch):
    monkeypatch.delenv("SITE_URL", raising=False)
    web = run_platform.platform(8001)[0]
    result = run_manage(
        "shell",
        "--no-imports",
        "-c",
        "from django.conf import settings; print(settings.SITE_URL)",
        SITE_URL=web.env["SITE_URL"],
    )
    assert result.stdout.strip().splitlines()[-1] == "http://127.0.0.1:8001", result.stderr


def test_start_up_ends_with_the_site_the_editor_and_the_admin_login():
    message = run_platform.start_up_message(
        "http://127.0.0.1:8001", "user 'admin', password 'pa55' (new account: the password is shown only now)"
    )
    lines = message.strip().splitlines()

    assert lines[0] == "Status page:  http://127.0.0.1:8001/"
    assert lines[1] == "Editor:       http://127.0.0.1:8001/editor/"
    assert "/admin/" not in message
    assert "'pa55'" in lines[2]


def write_mail(folder, subject: str, body: str):
    from django.core.mail import EmailMultiAlternatives

    from statuspage.mail_files import EmailFileBackend

    message = EmailMultiAlternatives(subject, body, "Acme Status <status@acme.example>", ["ops@example.com"])
    message.attach_alternative("<p>html</p>", "text/html")
    EmailFileBackend(file_path=str(folder), alias="default").send_messages([message])


def test_each_new_mail_is_printed_once_with_its_subject_and_first_link(tmp_path):
    folder = tmp_path / "mail"
    write_mail(folder, "Old news", "Seen before make run started: http://127.0.0.1:8001/old/")
    watch = run_platform.MailWatch(folder)
    assert watch.new_mail() == []
    token = "k" * 120
    write_mail(
        folder,
        "Confirm your subscription to Acme Status",
        f"Someone asked.\n\nConfirm the subscription: http://127.0.0.1:8001/subscribe/confirm/{token}/\n\n"
        "Or read http://127.0.0.1:8001/ first.",
    )

    (path,) = watch.new_mail()
    line = run_platform.mail_summary(path)

    assert watch.new_mail() == []
    assert line.split("\n") == [
        "",
        "Mail to ops@example.com: Confirm your subscription to Acme Status",
        f"    http://127.0.0.1:8001/subscribe/confirm/{token}/",
        "",
    ]


def test_a_missing_mail_folder_is_no_mail():
    assert run_platform.MailWatch(Path("/nonexistent/mail")).new_mail() == []


# --- what `make run` prints while it runs, and how it stops ---

ACCESS_LOG = """[06/Dec/2026 21:43:05] "GET /static/css/site.css HTTP/1.1" 200 18231
[06/Dec/2026 21:43:06] "GET /ru/incidents/webhooks-late/ HTTP/1.1" 200 14171
[06/Dec/2026 21:43:06] "GET /static/js/local-time.js HTTP/1.1" 304 0
[06/Dec/2026 21:43:06] "HEAD /static/favicon.svg HTTP/1.1" 200 0
Not Found: /en/
[06/Dec/2026 21:43:07] "GET /en/ HTTP/1.1" 404 14171
"""


def test_the_access_log_leaves_out_requests_for_static_files():
    shown = []
    run_platform.relay(io.StringIO(ACCESS_LOG), show=shown.append)

    assert shown == [
        '[06/Dec/2026 21:43:06] "GET /ru/incidents/webhooks-late/ HTTP/1.1" 200 14171',
        "Not Found: /en/",
        '[06/Dec/2026 21:43:07] "GET /en/ HTTP/1.1" 404 14171',
    ]


def test_the_web_server_log_is_read_line_by_line_so_mails_never_share_its_lines():
    web, *others = run_platform.platform(8001)
    assert web.relayed and web.env["PYTHONUNBUFFERED"] == "1"
    assert not any(child.relayed for child in others)


# A stand-in for a Celery worker: a main process that stops its pool itself on SIGTERM, and a pool
# process in its process group that reports any SIGTERM it receives (Celery logs an ERROR then).
WORKER = """
import os, signal, sys, time
folder = sys.argv[1]
pool = os.fork()
if pool == 0:
    signal.signal(signal.SIGTERM, lambda *a: (open(os.path.join(folder, "pool-killed"), "w").close(), os._exit(1)))
    open(os.path.join(folder, "pool-ready"), "w").close()
    while not os.path.exists(os.path.join(folder, "stop")):
        time.sleep(0.02)
    os._exit(0)
def warm_shutdown(*args):
    open(os.path.join(folder, "stop"), "w").close()
    os.waitpid(pool, 0)
    sys.exit(0)
signal.signal(signal.SIGTERM, warm_shutdown)
open(os.path.join(folder, "ready"), "w").close()
while True:
    time.sleep(0.05)
"""


def test_stopping_leaves_each_worker_to_stop_its_own_pool(tmp_path):
    child = run_platform.Child("worker", [sys.executable, "-c", WORKER, str(tmp_path)])
    child.process = subprocess.Popen(child.command, start_new_session=True)
    deadline = time.monotonic() + 10
    while (
        not ((tmp_path / "ready").exists() and (tmp_path / "pool-ready").exists())
        and time.monotonic() < deadline
    ):
        time.sleep(0.05)

    run_platform.stop_all([child])

    assert child.process.returncode == 0
    assert not (tmp_path / "pool-killed").exists()
