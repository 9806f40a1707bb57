"""Starts the web server, a Celery worker and the Celery scheduler together; Ctrl-C stops all.

Run by `make run`. Refuses to start when the port is taken, and prints the address once the
web server answers. A worker or scheduler that stops (the broker went away: Redis stopped, the
embedded broker's folder moved) is started again after a growing pause while the web server
keeps serving; only the web server stopping, or Ctrl-C, stops everything.
"""

import argparse
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

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
        print(f"{child.name} stopped (exit code {code}); starting it again in {pause:.0f} s", flush=True)
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


def platform(port: int) -> list[Child]:
    celery = [PYTHON, "-m", "celery", "-A", "statuspage"]
    # The demo's metrics get a synthetic sample a minute (incidents.demo.feed), so values move.
    env = {**os.environ, "DEMO_FEED": os.environ.get("DEMO_FEED", "1")}
    return [
        Child(
            "web",
            [PYTHON, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
            essential=True,
            # runserver answers each request in a new thread, and a kept connection would stay
            # open after its thread ends: close each at the end of its request.
            env={**env, "DATABASE_CONN_MAX_AGE": "0"},
        ),
        Child(
            "worker",
            celery + ["worker", "-Q", "default,probes,notify", "--concurrency", "2", "-l", "warning"],
            env=env,
        ),
        Child("scheduler", celery + ["beat", "-l", "warning"], env=env),
    ]


def start(child: Child) -> subprocess.Popen:
    return subprocess.Popen(child.command, cwd=ROOT, env=child.env, start_new_session=True)


def stop_all(children: list[Child]) -> None:
    running = [c.process for c in children if c.process is not None and c.process.poll() is None]
    for process in running:
        os.killpg(process.pid, signal.SIGTERM)
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
    children = platform(port)
    for child in children:
        child.process, child.started_at = start(child), time.monotonic()

    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, lambda *a: (stop_all(children), sys.exit(0)))
    try:
        if wait_until_answering(f"http://127.0.0.1:{port}/", 60):
            print(
                f"Status page running at http://127.0.0.1:{port}/ (editor at /admin/); Ctrl-C stops it.",
                flush=True,
            )
        parent = os.getppid()
        while True:
            if os.getppid() != parent:  # make was killed: take the platform down with it
                return 1
            stopped = tend(children, start=start, now=time.monotonic())
            if stopped:
                print(f"{stopped} stopped; stopping the rest.", flush=True)
                return 1
            time.sleep(0.5)
    except KeyboardInterrupt:
        return 0
    finally:
        stop_all(children)


if __name__ == "__main__":
    sys.exit(main())
