"""Starts the web server, the Celery workers and the Celery scheduler together; Ctrl-C stops all.

Run by `make run`. Refuses to start when the port is taken; sets SITE_URL to its own address
unless it is set, so links in mails, feeds and badges point here; once the web server answers,
prints the site's and the editor's address and the admin login; then prints each mail saved in
var/mail/ (its subject and first link) as it arrives, on lines of its own between blank lines.
The web server's access log is passed on without requests for static files; Ctrl-C stops each
process by its main process, so the workers stop their pools themselves. A worker or scheduler
that stops (the broker went away: Redis stopped, the embedded broker's folder moved) is started
again after a growing pause while the web server keeps serving; only the web server stopping,
or Ctrl-C, stops everything.
"""

import argparse
import email
import email.policy
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
# Pauses before restarting a stopped worker: 1, 2, 4, 8, 16, then every 30 s while it keeps failing.
FIRST_PAUSE_SECONDS = 1.0
LONGEST_PAUSE_SECONDS = 30.0
# A child that has run this long counts as healthy again: its next failure waits the first pause.
HEALTHY_AFTER_SECONDS = 60.0


@dataclass
class Child:
    """One process of the platform. The web server is essential: when it stops, all stop."""

    name: str
    command: list[str]
    essential: bool = False
    env: dict[str, str] | None = None
    # Its output is read here, line by line (the web server's access log, without static files).
    relayed: bool = False
    process: subprocess.Popen | None = None
    started_at: float = 0.0
    failures: int = 0
    restart_at: float | None = None


def pause_after(failures: int) -> float:
    """Seconds to wait before the next start after `failures` failures in a row."""
    return min(LONGEST_PAUSE_SECONDS, FIRST_PAUSE_SECONDS * 2 ** max(failures - 1, 0))


def tend(children: list[Child], *, start: Callable[[Child], subprocess.Popen], now: float) -> str | None:
    """One round of supervision: notes children that stopped, starts again those whose pause
    has passed. Returns the name of an essential child that stopped (stop everything then)."""
    for child in children:
        if child.process is None:
            if child.restart_at is not None and now >= child.restart_at:
                child.process, child.started_at, child.restart_at = start(child), now, None
            continue
        code = child.process.poll()
        if code is None:
            if child.failures and now - child.started_at >= HEALTHY_AFTER_SECONDS:
                child.failures = 0
            continue
        if child.essential:
            return child.name
        child.failures += 1
        pause = pause_after(child.failures)
        child.process, child.restart_at = None, now + pause
        say(f"{child.name} stopped (exit code {code}); starting it again in {pause:.0f} s")
    return None


def port_is_free(port: int) -> bool:
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def wait_until_answering(url: str, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2):
                return True
        except OSError:
            time.sleep(0.3)
    return False


def site_url(port: int, environ: dict[str, str]) -> str:
    """SITE_URL as set, or this server's own address."""
    return (environ.get("SITE_URL") or f"http://127.0.0.1:{port}").rstrip("/")


def local_environ() -> dict[str, str]:
    """This environment as a local run: plain http on loopback, mails saved as files, the signing
    key kept in var/, whatever DEBUG says (statuspage/settings.py)."""
    return {**os.environ, "LOCAL_RUN": "1"}


def platform(port: int) -> list[Child]:
    # --quiet: no start-up banners, which pushed the addresses and login out of sight.
    celery = [PYTHON, "-m", "celery", "-A", "statuspage", "--quiet"]
    # The demo's metrics get a synthetic sample a minute (incidents.demo.feed), so values move.
    env = {
        **local_environ(),
        "DEMO_FEED": os.environ.get("DEMO_FEED", "1"),
        "SITE_URL": site_url(port, os.environ),
        # Named here, so the worker's node queue is the one the scheduler sends to.
        "NODE_NAME": node_name(),
    }
    return [
        Child(
            "web",
            [PYTHON, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
            essential=True,
            # runserver answers each request in a new thread, and a kept connection would stay
            # open after its thread ends: close each at the end of its request.
            env={**env, "DATABASE_CONN_MAX_AGE": "0", "PYTHONUNBUFFERED": "1"},
            relayed=True,
        ),
        Child(
            "worker",
            # node.<name>: what the scheduler sends this machine alone (its own static snapshot).
            celery
            + ["worker", "-Q", f"default,probes,node.{node_name()}", "--concurrency", "2", "-l", "warning"],
            env=env,
        ),
        # Notifications get a worker of their own, so the first mail of an incident never waits
        # behind the snapshot export that every publish starts (see docs/subscriptions.md).
        Child(
            "notifier",
            celery + ["worker", "-Q", "notify", "-n", "notify@%h", "--pool", "solo", "-l", "warning"],
            env=env,
        ),
        Child("scheduler", celery + ["beat", "-l", "warning"], env=env),
    ]


def node_name() -> str:
    """This machine's name among the nodes, as the settings read it (NODE_NAME, else the host name)."""
    return os.environ.get("NODE_NAME") or socket.gethostname()


def var_dir() -> Path:
    return Path(os.environ.get("STATUSPAGE_VAR_DIR") or ROOT / "var")


def clear_process_metrics() -> None:
    """Counters of processes that no longer run would otherwise be added to every scrape."""
    folder = Path(os.environ.get("METRICS_PROCESS_DIR") or var_dir() / "prometheus")
    for file in folder.glob("*.db"):
        file.unlink(missing_ok=True)


LINK = re.compile(r"https?://[^\s<>\"')]+")
# An access-log line of the development server for a static file: '[…] "GET /static/… HTTP/1.1" 200 …'.
STATIC_REQUEST = re.compile(r'^\[[^\]]*\] "[A-Z]+ /static/')
# Whole lines only: the web server's log (read by a thread) and the mails never share a line.
OUTPUT = threading.Lock()


def say(text: str) -> None:
    with OUTPUT:
        print(text, flush=True)


def is_static_request(line: str) -> bool:
    return bool(STATIC_REQUEST.match(line))


def relay(stream: IO[str], *, show: Callable[[str], None]) -> None:
    """Passes a child's output on line by line, leaving out requests for static files."""
    for line in stream:
        if not is_static_request(line):
            show(line.rstrip("\n"))


def mail_summary(path: Path) -> str:
    """One line for a saved mail: to whom, its subject and the first link of its text."""
    with open(path, "rb") as file:
        message = email.message_from_binary_file(file, policy=email.policy.default)
    part = message.get_body(preferencelist=("plain", "html"))
    text = part.get_content() if part is not None else ""
    link = LINK.search(text)
    line = f"Mail to {message['To']}: {message['Subject']}"
    # A blank line on each side: it stands apart from the access log around it.
    return f"\n{line}\n    {link.group(0)}\n" if link else f"\n{line}\n"


class MailWatch:
    """The .eml files that appear in a folder, each reported once."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.seen = set(self._names())

    def _names(self) -> list[str]:
        try:
            return sorted(p.name for p in self.folder.iterdir() if p.suffix == ".eml")
        except OSError:
            return []

    def new_mail(self) -> list[Path]:
        fresh = [name for name in self._names() if name not in self.seen]
        self.seen.update(fresh)
        return [self.folder / name for name in fresh]


def admin_login() -> str:
    """Makes sure the admin account exists; what to log in with (the password on the first run)."""
    done = subprocess.run(
        [PYTHON, "manage.py", "ensure_admin"],
        cwd=ROOT,
        env=local_environ(),
        capture_output=True,
        text=True,
        check=False,
    )
    return (done.stdout or done.stderr).strip()


def start_up_message(url: str, login: str) -> str:
    return "\n".join(
        [
            "",
            f"Status page:  {url}/",
            f"Editor:       {url}/editor/",
            f"Admin login:  {login}",
            f"Mails are saved in {var_dir() / 'mail'} and shown here as they arrive. Ctrl-C stops everything.",
            "",
        ]
    )


def start(child: Child) -> subprocess.Popen:
    if not child.relayed:
        return subprocess.Popen(child.command, cwd=ROOT, env=child.env, start_new_session=True)
    process = subprocess.Popen(
        child.command,
        cwd=ROOT,
        env=child.env,
        start_new_session=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        bufsize=1,
    )
    threading.Thread(target=relay, args=(process.stdout,), kwargs={"show": say}, daemon=True).start()
    return process


def stop_all(children: list[Child]) -> None:
    """SIGTERM to each child's main process only: a Celery worker then stops its own pool, where
    a signal to the whole group killed the pool's processes under it (two ERROR lines)."""
    running = [c.process for c in children if c.process is not None and c.process.poll() is None]
    for process in running:
        process.terminate()
    for process in running:
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    port = parser.parse_args().port
    if not port_is_free(port):
        print(f"Port {port} on 127.0.0.1 is already in use; stop what uses it or run: make run PORT=8001")
        return 1
    login = admin_login()
    children = platform(port)
    url = site_url(port, os.environ)
    mail = MailWatch(var_dir() / "mail")
    clear_process_metrics()
    for child in children:
        child.process, child.started_at = start(child), time.monotonic()

    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, lambda *a: (stop_all(children), sys.exit(0)))
    try:
        if wait_until_answering(f"http://127.0.0.1:{port}/", 60):
            say(start_up_message(url, login))
        parent = os.getppid()
        while True:
            if os.getppid() != parent:  # make was killed: take the platform down with it
                return 1
            for path in mail.new_mail():
                try:
                    say(mail_summary(path))
                except (OSError, ValueError) as error:
                    say(f"Mail saved in {path} (cannot read it: {error})")
            stopped = tend(children, start=start, now=time.monotonic())
            if stopped:
                say(f"{stopped} stopped; stopping the rest.")
                return 1
            time.sleep(0.5)
    except KeyboardInterrupt:
        return 0
    finally:
        stop_all(children)


if __name__ == "__main__":
    sys.exit(main())
