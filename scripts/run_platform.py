"""Starts the web server, a Celery worker and the Celery scheduler together; Ctrl-C stops all.

Run by `make run`. Refuses to start when the port is taken, and prints the address once the
web server answers.
"""

import argparse
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable


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


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    port = parser.parse_args().port
    if not port_is_free(port):
        print(f"Port {port} on 127.0.0.1 is already in use; stop what uses it or run: make run PORT=8001")
        return 1
    celery = [PYTHON, "-m", "celery", "-A", "statuspage"]
    commands = {
        "web": [PYTHON, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
        "worker": celery + ["worker", "-Q", "default,probes,notify", "--concurrency", "2", "-l", "warning"],
        "scheduler": celery + ["beat", "-l", "warning"],
    }
    # The demo's metrics get a synthetic sample a minute (incidents.demo.feed), so values move.
    env = {**os.environ, "DEMO_FEED": os.environ.get("DEMO_FEED", "1")}
    processes = {
        name: subprocess.Popen(cmd, cwd=ROOT, env=env, start_new_session=True)
        for name, cmd in commands.items()
    }

    def stop(*_args):
        for process in processes.values():
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in processes.values():
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)

    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, lambda *a: (stop(), sys.exit(0)))
    try:
        if wait_until_answering(f"http://127.0.0.1:{port}/", 60):
            print(
                f"Status page running at http://127.0.0.1:{port}/ (editor at /admin/); Ctrl-C stops it.",
                flush=True,
            )
        parent = os.getppid()
        while all(p.poll() is None for p in processes.values()):
            if os.getppid() != parent:  # make was killed: take the platform down with it
                return 1
            time.sleep(0.5)
        dead = [name for name, p in processes.items() if p.poll() is not None]
        print(f"{', '.join(dead)} stopped; stopping the rest.")
        return 1
    except KeyboardInterrupt:
        return 0
    finally:
        stop()


if __name__ == "__main__":
    sys.exit(main())
