"""Runs a benchmark (or the drills) and keeps what it printed in docs/bench/<name>.md, headed by
the command, the date and the machine, so the docs quote figures a command made.

    python scripts/bench_record.py bench-scan -- .venv/bin/python scripts/bench_scan.py

writes docs/bench/scan.md (`drill` writes docs/bench/drill.md).

The output is shown as it comes and written once the command ends (a failed run too, with its
exit status); the exit status is the command's.
"""

import datetime as dt
import os
import platform
import shlex
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "docs" / "bench"


def machine() -> str:
    load = f", load average {os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else ""
    return (
        f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores{load}, "
        f"Python {platform.python_version()}"
    )


def settings_given() -> str:
    """The environment a run depends on: its own knobs by value, the servers only as set."""
    knobs = [f"{k}={v}" for k, v in sorted(os.environ.items()) if k.startswith(("BENCH_", "DRILL"))]
    servers = [f"{k} set" for k in ("DATABASE_URL", "REDIS_URL") if os.environ.get(k)]
    return ", ".join(knobs + servers) or "none"


def main() -> int:
    target, separator, *command = sys.argv[1:]
    if separator != "--" or not command:
        sys.exit(__doc__)
    started = dt.datetime.now(dt.UTC)
    header = [
        f"# make {target}",
        "",
        f"- command: `make {target}` (`{shlex.join(command)}`)",
        f"- date: {started:%Y-%m-%d %H:%M} UTC",
        f"- machine: {machine()}",
        f"- environment: {settings_given()}",
        "",
    ]
    lines = []
    environment = {**os.environ, "PYTHONUNBUFFERED": "1"}  # shown as it comes
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=environment
    ) as process:
        for line in process.stdout:
            sys.stdout.write(line)
            lines.append(line.rstrip("\n"))
    if process.returncode:
        lines.append(f"(exit status {process.returncode})")
    BENCH.mkdir(parents=True, exist_ok=True)
    (BENCH / f"{record_name(target)}.md").write_text("\n".join([*header, "```text", *lines, "```", ""]))
    return process.returncode


def record_name(target: str) -> str:
    """`bench-probes` → probes; `bench-probes REGIONS=3 TARGETS=3000` → probes-3x3000."""
    name, *variables = target.split()
    values = [variable.partition("=")[2] for variable in variables]
    return "-".join([name.removeprefix("bench-"), *(["x".join(values)] if values else [])])


if __name__ == "__main__":
    sys.exit(main())
