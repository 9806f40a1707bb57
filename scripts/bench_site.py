#!/usr/bin/env python
"""Renders every public page uncached on a small and a large history and compares them.

    make bench-site            (or: .venv/bin/python scripts/bench_site.py)

Each dataset lives in its own SQLite file under $STATUSPAGE_VAR_DIR (default var/), built
once and reused: the small one is the demo (`load_demo`, or a small synthetic history where
that command does not exist), the large one is 60 components in 8 groups, 5,000 incidents
with 20,000 updates and 90 days of rollups for 30 metrics (`build_site_history`). Set
BENCH_SITE_RUNS to change how many timed renders each page gets per round (default 10) and
BENCH_SITE_ROUNDS the number of rounds (default 3; small and large alternate).

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
    runs = int(os.environ.get("BENCH_SITE_RUNS", "10"))
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
        results[name] = {"queries": query_count, "timings_ms": timings}
    shape = {
        "components": Component.objects.count(),
        "incidents": Incident.objects.count(),
        "updates": IncidentUpdate.objects.count(),
        "rollups": Rollup.objects.count(),
    }
    print(json.dumps({"pages": results, "shape": shape}))


def measure(dataset: str, var_dir: Path) -> dict:
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{var_dir / f'bench-site-{dataset}.sqlite3'}",
        "PUBLIC_PAGE_CACHE_SECONDS": "0",  # measure rendering, not the cache
        "DEBUG": "1",
        "LOG_LEVEL": "ERROR",
    }
    env.pop("REDIS_URL", None)
    out = subprocess.run(
        [sys.executable, __file__, "--child", dataset], env=env, check=True, capture_output=True, text=True
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    var_dir = Path(os.environ.get("STATUSPAGE_VAR_DIR", ROOT / "var"))
    var_dir.mkdir(parents=True, exist_ok=True)
    # Small and large alternate in rounds, so a burst of load from other work on the machine
    # falls on both rather than on one of them.
    rounds = int(os.environ.get("BENCH_SITE_ROUNDS", "3"))
    timings: dict[str, dict[str, list[float]]] = {"small": {}, "large": {}}
    queries: dict[str, dict[str, int]] = {"small": {}, "large": {}}
    for round_number in range(rounds):
        for dataset in ("small", "large"):
            result = measure(dataset, var_dir)
            if round_number == 0:
                shape = " ".join(f"{name}={count}" for name, count in result["shape"].items())
                print(f"{dataset} dataset: {shape}", file=sys.stderr)
            for name, page in result["pages"].items():
                timings[dataset].setdefault(name, []).extend(page["timings_ms"])
                queries[dataset][name] = max(queries[dataset].get(name, 0), page["queries"])
    worst, most = 0.0, 0
    for name in timings["small"]:
        small, large = statistics.median(timings["small"][name]), statistics.median(timings["large"][name])
        q_small, q_large = queries["small"][name], queries["large"][name]
        ratio = large / small
        worst, most = max(worst, ratio), max(most, q_small, q_large)
        print(
            f"page={name} queries_small={q_small} queries_large={q_large} "
            f"p50_ms_small={small:.1f} p50_ms_large={large:.1f} ratio={ratio:.2f}"
        )
    print(f"site: worst_ratio={worst:.2f} max_queries={most}")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--child":
        child(sys.argv[2])
    else:
        main()
