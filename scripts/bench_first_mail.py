"""`make bench-first-mail`: seconds from declaring an incident to its first mail, as `make run` runs.

Starts the platform the way `make run` does (scripts/run_platform.py: web server, Celery worker
and scheduler) with the embedded defaults in a fresh temporary var directory: SQLite, no Redis,
the file-system broker. Mail goes over SMTP to the local sink (scripts/smtp_sink.py), which
writes each Message-ID as it arrives. One confirmed page-wide subscriber; each run declares an
incident through the API (`POST /api/v1/incidents/`) and measures the time until the sink has
the mail whose Message-ID carries the new update's id. A first, unmeasured run waits for the
worker to be up. The last line is:

first_mail: runs=<n> p50_s=<median> max_s=<slowest> goal=met|missed   (goal: every run < 10 s)

Environment: BENCH_RUNS (5), BENCH_TIMEOUT (120 s per run), BENCH_PAUSE (3 s between runs, so
a run does not start in step with the previous one), BENCH_KEEP=1 keeps the var directory.
"""

import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
RUNS = int(os.environ.get("BENCH_RUNS", "5"))
TIMEOUT = float(os.environ.get("BENCH_TIMEOUT", "120"))
PAUSE = float(os.environ.get("BENCH_PAUSE", "3"))
GOAL_SECONDS = 10.0
ADDRESS = "first-mail@bench.example.com"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def environment(var_dir: Path, smtp_port: int) -> dict[str, str]:
    """The embedded defaults: whatever database, Redis or mail settings the caller's shell has
    are dropped, so the figure is the one a developer gets from `make run`."""
    dropped = {"DATABASE_URL", "REDIS_URL", "EMAIL_BACKEND", "EMAIL_HOST", "EMAIL_PORT", "DEBUG"}
    env = {key: value for key, value in os.environ.items() if key not in dropped}
    env.update(
        {
            "STATUSPAGE_VAR_DIR": str(var_dir),
            "EMAIL_BACKEND": "smtp",
            "EMAIL_HOST": "127.0.0.1",
            "EMAIL_PORT": str(smtp_port),
            "EMAIL_USE_TLS": "0",
        }
    )
    return env


def manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run([PYTHON, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"manage.py {args[0]} failed:\n{done.stderr}")
    return done.stdout


SETUP = """
from django.utils import timezone
from incidents.models import Subscriber, TokenScope
from django.contrib.auth import get_user_model
from incidents.services.api_tokens import issue_token
Subscriber.objects.create(email={address!r}, language="en", all_components=True, confirmed_at=timezone.now())
admin = get_user_model().objects.get(username="admin")
print(issue_token(admin, name="bench-first-mail", scope=TokenScope.READ_WRITE, actor=admin)[1])
"""


def prepare(env: dict[str, str]) -> str:
    """Migrates, loads the demo and the admin as `make run` does; returns an API token."""
    manage(env, "migrate", "--noinput")
    manage(env, "load_demo")
    manage(env, "ensure_admin")
    return manage(env, "shell", "-c", SETUP.format(address=ADDRESS)).strip().splitlines()[-1]


def declare(base_url: str, token: str, title: str) -> str:
    """Declares through the API; returns the first update's id."""
    body = json.dumps({"title": title, "language": "en", "body": "Looking into it.", "impact": "major"})
    request = urllib.request.Request(
        f"{base_url}/api/v1/incidents/",
        data=body.encode(),
        method="POST",
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer)["updates"][0]["id"]


def wait_for_mail(received: Path, update_id: str, started: float) -> float | None:
    """Seconds from `started` until a Message-ID naming `update_id` is in the sink's file."""
    needle = f"<{update_id}.".encode()
    while time.monotonic() - started < TIMEOUT:
        if needle in received.read_bytes():
            return time.monotonic() - started
        time.sleep(0.02)
    return None


def wait_until_answering(url: str, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.3)
    raise SystemExit(f"the platform did not answer at {url} within {seconds:.0f} s")


def measure(base_url: str, token: str, received: Path) -> list[float]:
    update_id = declare(base_url, token, "Warm-up: the worker is starting")
    if wait_for_mail(received, update_id, time.monotonic()) is None:
        raise SystemExit(f"no mail arrived within {TIMEOUT:.0f} s of the warm-up declaration")
    times = []
    for run in range(1, RUNS + 1):
        time.sleep(PAUSE)
        started = time.monotonic()
        update_id = declare(base_url, token, f"Bench incident {run}")
        elapsed = wait_for_mail(received, update_id, started)
        print(f"run {run}: " + (f"{elapsed:.2f} s" if elapsed is not None else "no mail"), flush=True)
        times.append(elapsed if elapsed is not None else float("inf"))
    return times


def main() -> int:
    var_dir = Path(tempfile.mkdtemp(prefix="bench-first-mail-"))
    smtp_port, web_port = free_port(), free_port()
    env = environment(var_dir, smtp_port)
    received = var_dir / "received.txt"
    received.touch()
    processes = []
    try:
        token = prepare(env)
        sink = subprocess.Popen(
            [PYTHON, "scripts/smtp_sink.py", "--port", str(smtp_port), "--out", str(received)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            text=True,
        )
        processes.append(sink)
        sink.stdout.readline()  # "ready"
        log = open(var_dir / "platform.log", "wb")  # closed with the process, at exit
        platform = subprocess.Popen(
            [PYTHON, "scripts/run_platform.py", "--port", str(web_port)],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        processes.append(platform)
        base_url = f"http://127.0.0.1:{web_port}"
        wait_until_answering(base_url + "/", 90)
        times = measure(base_url, token, received)
    finally:
        for process in reversed(processes):
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
        if os.environ.get("BENCH_KEEP") == "1":
            print(f"var directory kept: {var_dir}")
        else:
            shutil.rmtree(var_dir, ignore_errors=True)
    p50, slowest = statistics.median(times), max(times)
    goal = "met" if slowest < GOAL_SECONDS else "missed"
    print(f"first_mail: runs={len(times)} p50_s={p50:.2f} max_s={slowest:.2f} goal={goal}")
    return 0 if goal == "met" else 1


if __name__ == "__main__":
    sys.exit(main())
