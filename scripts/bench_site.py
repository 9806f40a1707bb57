#!/usr/bin/env python
"""Renders every public page uncached on a small and a large history and compares them.

    make bench-site            (or: .venv/bin/python scripts/bench_site.py)

Each dataset lives in its own SQLite file under $STATUSPAGE_VAR_DIR (default var/), built
once and reused: the small one is the demo (`load_demo`, or a small synthetic history where
that command does not exist), the large one is 60 components in 8 groups, 5,000 incidents
with 20,000 updates and 90 days of rollups for 30 metrics (`build_site_history`). Set
BENCH_SITE_RUNS to change how many timed renders each page gets (default 30).

Prints one line per page, then the worst ratio and the most queries any page ran:
    page=<name> queries_small=<n> queries_large=<n> p50_ms_small=<x> p50_ms_large=<y> ratio=<y/x>
    site: worst_ratio=<r> max_queries=<q>
"""

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SMALL = {"groups": 3, "components": 8, "incidents": 40, "metrics": 6, "rollup_days": 90, "history_days": 120}


def child(dataset: str) -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "statuspage.settings")
    import django

    django.setup()
    from django.core.management import call_command, get_commands
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections, connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from incidents.management.commands.build_site_history import build_history
    from incidents.models import Component, Incident, IncidentUpdate, PostmortemState, Rollup

    # Keep one connection for the whole run, so query capture sees every request's queries.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)

    call_command("migrate", verbosity=0, interactive=False)
    if not Component.objects.exists():
        if dataset == "large":
            build_history()
        elif "load_demo" in get_commands():
            call_command("load_demo", verbosity=0)
        else:  # the demo command is not on every branch: a small synthetic page instead
            build_history(**SMALL)

    incident = (
        Incident.objects.published()
        .filter(postmortem__state=PostmortemState.PUBLISHED)
        .order_by("-started_at")
        .first()
        or Incident.objects.published().order_by("-started_at").first()
    )
    component = (
        Component.objects.filter(metrics__isnull=False).order_by("group__position", "position").first()
    )
    pages = {
        "overview": "/",
        "overview_ru": "/ru/",
        "incident": f"/incidents/{incident.slug}/",
        "component": f"/components/{component.slug}/",
        "history": "/history/",
        "history_filtered": f"/history/?component={component.slug}&page=2",
        "uptime": "/uptime/",
        "maintenance": "/maintenance/",
        "feed_atom": "/history.atom",
        "component_feed_rss": f"/components/{component.slug}/history.rss",
    }
    runs = int(os.environ.get("BENCH_SITE_RUNS", "30"))
    client = Client()
    results = {}
    for name, path in pages.items():
        connection.queries_log.clear()  # a full log (9,000 entries after a build) would count nothing
        with CaptureQueriesContext(connection) as queries:
            status = client.get(path).status_code
        query_count = len(queries)  # read now: the log is cleared below
        if status != 200:
            raise SystemExit(f"{path} answered {status}")
        for _ in range(3):
            client.get(path)
        timings = []
        for _ in range(runs):
            started = time.perf_counter()
            client.get(path)
            timings.append((time.perf_counter() - started) * 1000)
            connection.queries_log.clear()
        results[name] = {"queries": query_count, "p50_ms": statistics.median(timings)}
    shape = {
        "components": Component.objects.count(),
        "incidents": Incident.objects.count(),
        "updates": IncidentUpdate.objects.count(),
        "rollups": Rollup.objects.count(),
    }
    print(json.dumps({"pages": results, "shape": shape}))


def main() -> None:
    var_dir = Path(os.environ.get("STATUSPAGE_VAR_DIR", ROOT / "var"))
    var_dir.mkdir(parents=True, exist_ok=True)
    measured = {}
    for dataset in ("small", "large"):
        env = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{var_dir / f'bench-site-{dataset}.sqlite3'}",
            "PUBLIC_PAGE_CACHE_SECONDS": "0",  # measure rendering, not the cache
            "DEBUG": "1",
            "LOG_LEVEL": "ERROR",
        }
        env.pop("REDIS_URL", None)
        out = subprocess.run(
            [sys.executable, __file__, "--child", dataset],
            env=env,
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        result = json.loads(out.strip().splitlines()[-1])
        measured[dataset] = result["pages"]
        shape = " ".join(f"{name}={count}" for name, count in result["shape"].items())
        print(f"{dataset} dataset: {shape}", file=sys.stderr)
    worst, most = 0.0, 0
    for name, small in measured["small"].items():
        large = measured["large"][name]
        ratio = large["p50_ms"] / small["p50_ms"]
        worst, most = max(worst, ratio), max(most, small["queries"], large["queries"])
        print(
            f"page={name} queries_small={small['queries']} queries_large={large['queries']} "
            f"p50_ms_small={small['p50_ms']:.1f} p50_ms_large={large['p50_ms']:.1f} ratio={ratio:.2f}"
        )
    print(f"site: worst_ratio={worst:.2f} max_queries={most}")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--child":
        child(sys.argv[2])
    else:
        main()
