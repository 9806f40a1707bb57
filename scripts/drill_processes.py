"""What the drills share about running things: a scratch folder, the processes started there
(each in a session of its own, logging to the folder), a clock for what they say, and waiting
for a condition."""

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path


class Scratch:
    def __init__(self, prefix: str, *, cwd: Path) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix=prefix))
        os.chmod(self.folder, 0o755)  # other users' processes (PostgreSQL, nginx) reach into it
        self.cwd = cwd
        self.started: list[subprocess.Popen] = []
        self.began = time.monotonic()

    def say(self, text: str) -> None:
        print(f"  {time.monotonic() - self.began:6.1f} s  {text}", file=sys.stderr, flush=True)

    def start(self, name: str, command: list[str], *, env: dict[str, str] | None = None) -> subprocess.Popen:
        """Starts a process in a session of its own, logging to `name`.log; `env` replaces the
        drill's environment when given."""
        log = open(self.folder / f"{name}.log", "ab")  # the child owns it
        process = subprocess.Popen(
            command,
            cwd=self.cwd,
            stdout=log,
            stderr=subprocess.STDOUT,
            env=os.environ if env is None else env,
            start_new_session=True,
        )
        log.close()
        self.started.append(process)
        return process


def wait_until[T](condition: Callable[[], T], seconds: float, every: float = 0.2) -> T:
    """The condition's first true value within `seconds`, or its value at the end."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if value := condition():
            return value
        time.sleep(every)
    return condition()
