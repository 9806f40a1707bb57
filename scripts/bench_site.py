#!/usr/bin/env python
"""Renders every public page uncached on a small and a large history and compares them.

    make bench-site            (or: .venv/bin/python scripts/bench_site.py)

Each dataset lives in its own SQLite file under $STATUSPAGE_VAR_DIR (default var/), built
once and reused: the small one is the demo (`load_demo`, or a small synthetic history where
that command does not exist), the large one is 60 components in 8 groups, 5,000 incidents
with 20,000 updates and 90 days of rollups for 30 metrics (`build_site_history`). Each dataset
is served by its own process, and the two take turns request by request; BENCH_SITE_RUNS
sets how many timed renders each page gets on each (default 60), BENCH_SITE_PAGES a
comma-separated list of the pages to measure (default all).

Pages are rendered without the page cache. Rows, cells and feed entries are kept per process
by what they show (incidents.kept), so a render rewrites only what changed; BENCH_SITE_COLD=1
empties them (and drops the held overview frame) before every timed request, which measures a
render in a process that has just started.

Prints one line per page, then the worst ratio and the most queries any page ran:
    page=<name> queries_small=<n> queries_large=<n> p50_ms_small=<x> p50_ms_large=<y> ratio=<y/x>
    site: worst_ratio=<r> max_queries=<q>
"""

import contextlib
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

    from incidents import kept, overview_frame
    from incidents.management.commands.build_site_history import build_history
    from incidents.models import Component, Incident, IncidentUpdate, PostmortemState, Rollup

    # Keep one connection for the whole run, so query capture sees every request's queries.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)

    # Stdout carries the answers to the parent, so whatever the setup prints goes to stderr.
    with contextlib.redirect_stdout(sys.stderr):
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
    shape = {
        "components": Component.objects.count(),
        "incidents": Incident.objects.count(),
        "updates": IncidentUpdate.objects.count(),
        "rollups": Rollup.objects.count(),
    }
    client = Client()
    cold = os.environ.get("BENCH_SITE_COLD") == "1"
    reply({"pages": pages, "shape": shape})
    # Then one command a line from the parent: "count <path>" runs a request and answers its
    # queries; "time <path>" answers how long one request took, in ms.
    for line in sys.stdin:
        command, path = line.split()
        if command == "count":
            connection.queries_log.clear()  # a full log (9,000 entries after a build) would count nothing
            with CaptureQueriesContext(connection) as queries:
                status = client.get(path).status_code
            if status != 200:
                raise SystemExit(f"{path} answered {status}")
            reply(len(queries))
        else:
            if cold:  # as in a process that just started: no rows kept, no overview frame held
                kept.forget_all()
                overview_frame.forget_held_frames()
            started = time.perf_counter()
            client.get(path)
            reply((time.perf_counter() - started) * 1000)
            connection.queries_log.clear()


def reply(value) -> None:
    sys.stdout.write(json.dumps(value) + "\n")
    sys.stdout.flush()


class Site:
    """A child process serving one dataset's pages, one timed request at a time."""

    def __init__(self, dataset: str, var_dir: Path):
        env = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{var_dir / f'bench-site-{dataset}.sqlite3'}",
            "PUBLIC_PAGE_CACHE_SECONDS": "0",  # measure rendering, not the cache
            "DEBUG": "1",
            "LOG_LEVEL": "ERROR",
        }
        env.pop("REDIS_URL", None)
        self.process = subprocess.Popen(
            [sys.executable, __file__, "--child", dataset],
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.ready = self._read()

    def _read(self):
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit(f"the benchmark's child stopped (exit code {self.process.wait()})")
        return json.loads(line)

    def ask(self, command: str, path: str):
        self.process.stdin.write(f"{command} {path}\n")
        self.process.stdin.flush()
        return self._read()

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait()


def main() -> None:
    var_dir = Path(os.environ.get("STATUSPAGE_VAR_DIR", ROOT / "var"))
    var_dir.mkdir(parents=True, exist_ok=True)
    runs = int(os.environ.get("BENCH_SITE_RUNS", "60"))
    # Both datasets are served at once and their requests alternate, one at a time: on the
    # 2-core machine one page of one dataset measured 7.2 to 11.7 ms p50 from one run to the
    # next, and paired requests share whatever slowed a run, where runs of one dataset after
    # the other did not.
    sites = {}
    for dataset in ("small", "large"):  # built one after the other: both builds are heavy
        sites[dataset] = Site(dataset, var_dir)
        shape = " ".join(f"{name}={count}" for name, count in sites[dataset].ready["shape"].items())
        print(f"{dataset} dataset: {shape}", file=sys.stderr)
    worst, most = 0.0, 0
    wanted = os.environ.get("BENCH_SITE_PAGES", "").split(",")  # e.g. "uptime,history"; all by default
    for name in sites["small"].ready["pages"]:
        if wanted != [""] and name not in wanted:
            continue
        paths = {dataset: site.ready["pages"][name] for dataset, site in sites.items()}
        queries = {dataset: site.ask("count", paths[dataset]) for dataset, site in sites.items()}
        for _ in range(3):
            for dataset, site in sites.items():
                site.ask("time", paths[dataset])
        timings: dict[str, list[float]] = {"small": [], "large": []}
        for _ in range(runs):
            for dataset, site in sites.items():
                timings[dataset].append(site.ask("time", paths[dataset]))
        small, large = statistics.median(timings["small"]), statistics.median(timings["large"])
        ratio = large / small
        worst, most = max(worst, ratio), max(most, queries["small"], queries["large"])
        print(
            f"page={name} queries_small={queries['small']} queries_large={queries['large']} "
            f"p50_ms_small={small:.1f} p50_ms_large={large:.1f} ratio={ratio:.2f}",
            flush=True,
        )
    for site in sites.values():
        site.close()
    print(f"site: worst_ratio={worst:.2f} max_queries={most}")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--child":
        child(sys.argv[2])
    else:
        main()
