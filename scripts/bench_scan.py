"""Benchmark of the JSON depth scan that runs before every JSON body we parse.

Times the scanner itself (incidents/validation/json_bodies.py, `json_depth_exceeds`), called
directly, so no body-size limit of any endpoint stands in front of it, on the hostile shapes
that made the earlier scanner quadratic or that are its most work:

- unterminated: `{"email": "` and then letters, a string that never closes;
- escaped quotes: `{"email": "` and then `\\"` to the end, never closing (the earlier scanner
  took 5 s at 32 KB);
- deep nesting: `[` to the end;
- long string: one valid string filling the text;
- shallow brackets: `[` and `]` nested to exactly the depth limit, over and over (every
  character a bracket the scan must count);
- short strings: a list of empty strings (every third character opens or closes one).

Each shape is built at 64 KiB and at 1 MiB; each time is the median of --rounds calls, in
milliseconds of this process's CPU time (on a shared machine, wall-clock time also counts the
turns of other processes, and does so more for longer calls). The last line gives the worst
shape's medians and their ratio; a scan linear in its input grows 16 times:

    scan: small_bytes=65536 large_bytes=1048576 small_ms=<n> large_ms=<n> growth=<large_ms/small_ms>

Usage: make bench-scan   (or: .venv/bin/python scripts/bench_scan.py --rounds 21)
"""

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "statuspage.settings")

SMALL_BYTES = 64 * 1024
LARGE_BYTES = 1024 * 1024


def shapes(size: int, limit: int) -> dict[str, str]:
    """Each hostile shape as a text of exactly `size` characters."""
    opening = '{"email": "'
    nest = "[" * limit + "]" * limit
    return {
        "unterminated": (opening + "a" * size)[:size],
        "escaped quotes": (opening + '\\"' * size)[:size],
        "deep nesting": "[" * size,
        "long string": '"' + "x" * (size - 2) + '"',
        "shallow brackets": (nest * (size // len(nest) + 1))[:size],
        "short strings": ("[" + '"",' * size)[:size],
    }


def median_ms(scan: Callable[[str, int], bool], text: str, limit: int, rounds: int) -> float:
    times = []
    for _round in range(rounds):
        started = time.process_time()
        scan(text, limit)
        times.append((time.process_time() - started) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=21)
    args = parser.parse_args()

    import django

    django.setup()
    from django.conf import settings

    from incidents.validation.json_bodies import json_depth_exceeds

    limit = settings.JSON_MAX_DEPTH
    small, large = shapes(SMALL_BYTES, limit), shapes(LARGE_BYTES, limit)
    print(f"JSON_MAX_DEPTH={limit} rounds={args.rounds}")
    worst_name, worst_small, worst_large = "", 0.0, 0.0
    for name in small:
        assert len(small[name]) == SMALL_BYTES and len(large[name]) == LARGE_BYTES, name
        small_ms = median_ms(json_depth_exceeds, small[name], limit, args.rounds)
        large_ms = median_ms(json_depth_exceeds, large[name], limit, args.rounds)
        print(f"  {name:<17} small_ms={small_ms:8.2f}  large_ms={large_ms:8.2f}")
        if large_ms > worst_large:
            worst_name, worst_small, worst_large = name, small_ms, large_ms
    print(f"worst shape: {worst_name}")
    print(
        f"scan: small_bytes={SMALL_BYTES} large_bytes={LARGE_BYTES} small_ms={worst_small:.2f} "
        f"large_ms={worst_large:.2f} growth={worst_large / worst_small:.1f}"
    )


if __name__ == "__main__":
    main()
