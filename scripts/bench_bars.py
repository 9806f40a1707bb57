#!/usr/bin/env python
"""Times the overview's day bars in-process on the demo data, as each kind of change leaves them.

    .venv/bin/python scripts/bench_bars.py      (REDIS_URL as the site runs; else the file cache)

The demo is loaded once into its own SQLite file under $STATUSPAGE_VAR_DIR/bench-bars/. Each
figure is the median of BENCH_BARS_RUNS (default 50) calls of the overview's bars, wall and CPU
milliseconds (CPU is the steadier one on a busy machine):
- content: right after a content change, nothing of the bars kept (every cache cleared);
- content_kept: right after a content change that touched none of the days before today (the
  content version moved, the days drawn under their own data are kept);
- live: after a live figure change only (the content version's bars kept).
Then the overview's HTML in bytes and the share of it that is day bars.

Prints one line:
    bars: content_ms=<w>/<cpu> content_kept_ms=<w>/<cpu> live_ms=<w>/<cpu> overview_bytes=<n> bars_bytes=<n>
"""

import gc
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("STATUSPAGE_VAR_DIR", ROOT / "var")) / "bench-bars"


def demo_database() -> None:
    os.environ["STATUSPAGE_VAR_DIR"] = str(VAR_DIR)
    if (VAR_DIR / "statuspage.sqlite3").exists():
        return
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "-v0"], check=True, cwd=ROOT)
    subprocess.run([*manage, "load_demo"], check=True, cwd=ROOT, stdout=subprocess.DEVNULL)


def median_ms(draw, before, runs: int) -> str:
    wall, cpu = [], []
    for _ in range(runs):
        before()
        gc.disable()
        started, started_cpu = time.perf_counter(), time.process_time()
        draw()
        wall.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - started_cpu) * 1000)
        gc.enable()
    return f"{statistics.median(wall):.2f}/{statistics.median(cpu):.2f}"


def main() -> None:
    demo_database()
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "statuspage.settings")
    import django

    django.setup()
    from django.core.cache import cache
    from django.test import Client

    from incidents.models import Component
    from incidents.public import versions
    from incidents.public.uptime_bars import overview_bars

    runs = int(os.environ.get("BENCH_BARS_RUNS", "50"))
    components = list(Component.objects.filter(showcase=True).order_by("position"))
    names = {c.pk: c.slug for c in components}

    def draw():
        overview_bars(components, names, language="en", days=90)

    def content_changed():
        cache.incr(versions.CONTENT_KEY) if cache.get(versions.CONTENT_KEY) else versions.content_version()

    def everything_cold():
        cache.clear()
        content_changed()

    draw()
    content = median_ms(draw, everything_cold, runs)
    content_kept = median_ms(draw, content_changed, runs)
    live = median_ms(draw, lambda: None, runs)
    page = Client().get("/").content.decode()
    bars = sum(len(bar.encode()) for bar in re.findall(r'<ol class="days".*?</ol>', page, re.S))
    print(
        f"bars: content_ms={content} content_kept_ms={content_kept} live_ms={live} "
        f"overview_bytes={len(page.encode())} bars_bytes={bars}"
    )


if __name__ == "__main__":
    main()
