"""What a failed drill shows of its processes: the end of each log that mentions an error."""

from collections.abc import Callable
from pathlib import Path


def show_errors_in_logs(folder: Path, say: Callable[[str], None], *, lines: int = 15) -> None:
    for log in sorted(folder.glob("*.log")):
        text = log.read_text(errors="replace")
        if "Error" in text or "Traceback" in text:
            say(f"--- {log.name} (last lines)")
            for line in text.splitlines()[-lines:]:
                say(line)
