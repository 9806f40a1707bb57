#!/usr/bin/env python
"""Times the render of the component page, the incident pages and the Statuspage v2 documents
right after a change: every cached copy cold, as the first reader after an edit finds them.

    .venv/bin/python scripts/bench_pages.py
    DATABASE_URL=postgres://… REDIS_URL=redis://… .venv/bin/python scripts/bench_pages.py

Runs in-process (Django test client, the page cache as configured) on the demo data
(`load_demo`), in a database of its own: SQLite under $STATUSPAGE_VAR_DIR (default
/tmp/statuspage-bench-pages) unless DATABASE_URL names one. Before each request both versions
move on (incidents.public.versions), so the page or document is built anew and stored, as after
an edit. BENCH_PAGES_RUNS sets the timed requests per page (default 50), BENCH_PAGES a
comma-separated list of the pages to time (default all).

Prints one line per page: the queries of one render, the p50 wall and CPU time of a request
(CPU: this process only, so on PostgreSQL without the server's share) and the body's size:
    page=<name> queries=<n> p50_ms=<x> cpu_p50_ms=<y> bytes=<n>
"""

import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.chdir(ROOT)  # importing the settings puts the working directory first on sys.path
os.environ.setdefault("STATUSPAGE_VAR_DIR", "/tmp/statuspage-bench-pages")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "statuspage.settings")
os.environ.setdefault("ALLOWED_HOSTS", "testserver")


def pages() -> dict[str, str]:
    from incidents.models import Component, Incident, PostmortemState

    published = Incident.objects.published()
    shown = {
        "component": Component.objects.filter(metrics__isnull=False)
        .order_by("group__position", "position")
        .first(),
        "component_without_metrics": Component.objects.filter(metrics__isnull=True)
        .order_by("position")
        .first(),
        "incident_open": published.incidents().open().order_by("-started_at").first(),
        "incident_postmortem": published.filter(postmortem__state=PostmortemState.PUBLISHED)
        .order_by("-started_at")
        .first(),
        "maintenance": published.maintenances().order_by("-scheduled_for").first(),
    }
    paths = {
        name: f"/{'components' if name.startswith('component') else 'incidents'}/{found.slug}/"
        for name, found in shown.items()
        if found is not None
    }
    for document in (
        "summary",
        "status",
        "components",
        "incidents",
        "incidents/unresolved",
        "scheduled-maintenances",
        "scheduled-maintenances/upcoming",
        "scheduled-maintenances/active",
    ):
        paths[f"v2_{document}"] = f"/api/v2/{document}.json"
    return paths


def every_cached_copy_cold() -> None:
    from django.core.cache import cache

    from incidents.public import versions

    versions.content_version(), versions.live_version()  # both exist before they move
    cache.incr(versions.CONTENT_KEY)
    cache.incr(versions.LIVE_KEY)


def main() -> None:
    import django

    django.setup()
    from django.core.management import call_command
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections, connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from incidents.models import Component

    # One connection for the whole run, as a worker keeps it, and so queries are counted.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    with open(os.devnull, "w") as quiet:
        call_command("migrate", verbosity=0, interactive=False, stdout=quiet)
        if not Component.objects.exists():
            call_command("load_demo", stdout=quiet)

    runs = int(os.environ.get("BENCH_PAGES_RUNS", "50"))
    chosen = os.environ.get("BENCH_PAGES", "")
    client = Client()
    for name, path in pages().items():
        if chosen and name not in chosen.split(","):
            continue
        every_cached_copy_cold()
        client.get(path)  # imports, templates and catalogues loaded
        every_cached_copy_cold()
        connection.queries_log.clear()
        with CaptureQueriesContext(connection) as queries:
            response = client.get(path)
        if response.status_code != 200:
            raise SystemExit(f"{path} answered {response.status_code}")
        query_count = len(queries)
        wall, cpu = [], []
        for _ in range(runs):
            every_cached_copy_cold()
            started, started_cpu = time.perf_counter(), time.process_time()
            client.get(path)
            wall.append((time.perf_counter() - started) * 1000)
            cpu.append((time.process_time() - started_cpu) * 1000)
            connection.queries_log.clear()
        print(
            f"page={name} queries={query_count} p50_ms={statistics.median(wall):.2f}"
            f" cpu_p50_ms={statistics.median(cpu):.2f} bytes={len(response.content)}",
            flush=True,
        )


if __name__ == "__main__":
    main()
