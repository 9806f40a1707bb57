#!/usr/bin/env python
"""Renders every public page on a small and a large history and compares them, then measures
how often pages are rendered again while samples arrive.

    make bench-site            (or: .venv/bin/python scripts/bench_site.py)

Each dataset lives in its own SQLite file under $STATUSPAGE_VAR_DIR (default var/), built
once and reused, by `build_site_history` (its SHAPES): both show the same 3 groups, 12
components, 12 metrics and equally dense incidents, whose newest ones are the same, so pages
and feeds list the same rows; the large one holds ten times the history behind them (4,800
incidents over ten years against 480 over one, 400 days of rollups against 90). Each dataset
is served by its own process, and the two take turns request by request; BENCH_SITE_RUNS
sets how many timed renders each page gets on each (default 60), BENCH_SITE_PAGES a
comma-separated list of the pages to measure (default all), BENCH_SITE_CHURN_SECONDS the
length of the churn run (default 60).

Pages are timed without the page cache (a render), then with it (a cached request).

Before timing, each dataset counts what every page shows from its markup (SHOWN: components and
the last days' incidents on the overview, history rows, uptime rows, maintenance articles, an
incident's updates, feed entries) and the benchmark stops unless both datasets show the same
counts, none of them zero.

The churn run serves a copy of the large dataset with the page cache on, as configured: a
thread records a sample for every metric each second (one metric moves its component between
operational and degraded, another takes its component down for ten seconds, which opens a
draft incident), publishes an incident and posts an update to it, while the main thread
requests every page in every language. Edits are the incidents opened (drafts or published)
and the updates posted; renders are the views the page cache ran (incidents.public.page_cache
.renders), summed over the languages; renders_feeds is the most any one feed (the history
Atom and RSS) rendered.

A page's ratio is the median of its paired ratios (the large dataset's time over the small
one's, request by request), each request timed with the garbage collector held off, after a
warm-up: a pause that slows one request of a pair no longer moves the figure.

The overview's render cost is measured on the demo data (`load_demo`, loaded afresh into its own
SQLite file), served as users run it (DEBUG off, the page cache on): render_ms is the overview
right after a content change (the content version moves, so every cache kept under it is cold),
live_render_ms after a live-figure change only (the live version moves), each the p50 of
BENCH_SITE_RENDER_RUNS (default 40); overview_bytes is the overview's uncompressed HTML. With
DATABASE_URL naming PostgreSQL, pg_render_ms is render_ms there (and on Redis when REDIS_URL is
set), in a database of its own beside the one named, made afresh on each run. On
stderr, beside them, the Python function calls of one such render (render_calls,
live_render_calls): what a render costs in work, which load on the machine does not move.

Prints one line per page, then the churn figures, then the overall figures:
    page=<name> queries_small=<n> queries_large=<n> p50_ms_small=<x> p50_ms_large=<y> ratio=<r>
        cached_p50_ms_small=<a> cached_p50_ms_large=<b>
    churn: samples=<n> edits=<e> renders_history=<h> renders_feeds=<f> renders_maintenance=<m>
    site: worst_ratio=<r> max_queries=<q> render_ms=<x> live_render_ms=<y> overview_bytes=<b>
        [pg_render_ms=<z>: render_ms on PostgreSQL, when DATABASE_URL names one]
"""

import gc
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import threading
import time
from html.parser import HTMLParser
from pathlib import Path
from xml.etree import ElementTree

ROOT = Path(__file__).resolve().parent.parent
# Untimed requests before each page's timed ones: code paths, templates and SQLite's pages warm.
WARM_UP = 5


def child(dataset: str) -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "statuspage.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections, connection
    from django.test import Client, override_settings
    from django.test.utils import CaptureQueriesContext

    from incidents.management.commands.build_site_history import SHAPES, build_history
    from incidents.models import Component, Incident, IncidentUpdate, PostmortemState, Rollup

    # Keep one connection for the whole run, so query capture sees every request's queries.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)

    with open(os.devnull, "w") as quiet:  # stdout carries the answers to the parent
        call_command("migrate", verbosity=0, interactive=False, stdout=quiet)
    if not Component.objects.exists():
        if dataset == "demo":
            from incidents.demo.loader import load_demo

            load_demo()
        else:
            build_history(**SHAPES[dataset])

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
    client = Client()
    shape = {
        "components": Component.objects.count(),
        "incidents": Incident.objects.count(),
        "updates": IncidentUpdate.objects.count(),
        "rollups": Rollup.objects.count(),
    }
    shown = {}
    if dataset == "demo":
        reply({"overview_bytes": len(client.get("/").content)})
        for line in sys.stdin:
            command, argument = line.split()
            if command.endswith("-calls"):
                reply(calls_after_change(client, argument, content=command == "render-calls"))
            else:
                reply(render_after_change(client, argument, content=command == "render"))
        return
    if dataset != "churn":
        for name, path in pages.items():
            response = client.get(path)
            if response.status_code != 200:
                raise SystemExit(f"{path} answered {response.status_code}")
            shown[name] = count_shown(name, response.content.decode())
    reply({"pages": pages, "shape": shape, "shown": shown})
    # Then one command a line from the parent: "count <path>" runs a request and answers its
    # queries; "time <path>" how long one request took without the page cache, in ms;
    # "cached <path>" the same with the page cache on; "churn <seconds>" the churn figures.
    for line in sys.stdin:
        command, argument = line.split()
        if command == "count":
            connection.queries_log.clear()  # a full log (9,000 entries after a build) would count nothing
            with CaptureQueriesContext(connection) as queries:
                status = client.get(argument).status_code
            if status != 200:
                raise SystemExit(f"{argument} answered {status}")
            reply(len(queries))
        elif command == "churn":
            reply(churn(client, component, seconds=int(argument)))
        else:
            with override_settings(PUBLIC_PAGE_CACHE_SECONDS=300 if command == "cached" else 0):
                reply(timed_get(client, argument))
            connection.queries_log.clear()


def timed_get(client, path: str) -> float:
    """One request in ms, the garbage collector held off: a collection is not the page's cost."""
    gc.collect()
    gc.disable()
    try:
        started = time.perf_counter()
        status = client.get(path).status_code
        elapsed = (time.perf_counter() - started) * 1000
    finally:
        gc.enable()
    if status != 200:
        raise SystemExit(f"{path} answered {status}")
    return elapsed


def calls_after_change(client, path: str, *, content: bool) -> int:
    """The Python function calls of one render after a change: the work a render does, the same
    on a busy machine as on a quiet one, where its time is not."""
    import cProfile
    import io
    import pstats

    profile = cProfile.Profile()
    profile.runcall(render_after_change, client, path, content=content)
    return pstats.Stats(profile, stream=io.StringIO()).total_calls


def render_after_change(client, path: str, *, content: bool) -> float:
    """`path` right after a content change (`content`) or a live-figure change, in ms: the version
    moves as a commit moves it, so the request finds nothing kept and renders."""
    from django.core.cache import cache

    from incidents.public import versions

    versions.page_version(live=True)  # both versions exist from here on
    cache.incr(versions.CONTENT_KEY if content else versions.LIVE_KEY)
    return timed_get(client, path)


# What each page shows, counted from its markup: (tag, classes) of one shown row (any of the
# space-separated classes), or, with a third item, rows as the `tag` children of the element
# of that class. Feeds count their entries. Both datasets must show the same counts, none of
# them zero.
SHOWN = {
    # Components and the last days' incidents.
    "overview": ("li", "component history-event"),
    "overview_ru": ("li", "component history-event"),
    "incident": ("li", "", "timeline"),
    "component": ("li", "", "history"),
    "history": ("li", "history-event"),
    "history_filtered": ("li", "history-event"),
    "uptime": ("tr", "", "uptime-table"),
    "maintenance": ("article", "maintenance"),
    "feed_atom": "entry",
    "component_feed_rss": "item",
}


class RowCounter(HTMLParser):
    """Counts `tag` elements with one of the classes `css_class` names, or (with `parent`)
    the `tag` elements within the element of class `parent` that have a `th scope=row` (table
    rows) or are its children (lists)."""

    VOID = {
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "source",
        "track",
        "wbr",
    }

    def __init__(self, tag: str, css_class: str, parent: str = ""):
        super().__init__()
        self.tag, self.css_classes, self.parent = tag, set(css_class.split()), parent
        self.stack: list[tuple[str, set[str]]] = []
        self.count = 0

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        classes = set((attributes.get("class") or "").split())
        if self.parent:
            if tag == "th" and attributes.get("scope") == "row" and self._inside(self.parent):
                self.count += 1  # a table's row: the row header of a body row
            elif tag == self.tag != "tr" and self.stack and self.parent in self.stack[-1][1]:
                self.count += 1
        elif tag == self.tag and self.css_classes & classes:
            self.count += 1
        if tag not in self.VOID:
            self.stack.append((tag, classes))

    def handle_endtag(self, tag):
        for depth in range(len(self.stack) - 1, -1, -1):
            if self.stack[depth][0] == tag:
                del self.stack[depth:]
                break

    def _inside(self, css_class: str) -> bool:
        return any(css_class in classes for _tag, classes in self.stack)


def count_shown(page: str, body: str) -> int:
    rule = SHOWN[page]
    if isinstance(rule, str):  # a feed: its entries or items
        root = ElementTree.fromstring(body.encode())
        return sum(1 for element in root.iter() if element.tag.rsplit("}", 1)[-1] == rule)
    counter = RowCounter(*rule)
    counter.feed(body)
    return counter.count


def same_shown(sites: dict) -> None:
    """Fails unless both datasets show the same rows, components and entries on every page."""
    small, large = sites["small"].ready["shown"], sites["large"].ready["shown"]
    print(f"shown: {' '.join(f'{page}={count}' for page, count in small.items())}", file=sys.stderr)
    differ = [
        f"{page}: small {small[page]}, large {large[page]}" for page in small if small[page] != large[page]
    ]
    empty = [page for page in small if not small[page]]
    if differ or empty:
        raise SystemExit(
            "bench-site compares like with like, but "
            + "; ".join(
                [
                    *(f"the datasets show different counts ({d})" for d in differ),
                    *(f"{page} shows nothing (has its markup changed? see SHOWN)" for page in empty),
                ]
            )
        )


WATCHED = {
    "history": ("/history/",),
    "feeds": ("/history.atom", "/history.rss"),
    "maintenance": ("/maintenance/",),
}


def churn(client, component, *, seconds: int) -> dict:
    """Samples every second for `seconds` while every page is requested in every language."""
    from django.conf import settings
    from django.db import connection

    from incidents.models import Component, Incident, Metric, StatusMode
    from incidents.public import page_cache

    prefixes = ["" if code == settings.LANGUAGE_CODE else f"/{code}" for code, _name in settings.LANGUAGES]
    paths = [
        "/",
        f"/components/{component.slug}/",
        "/uptime/",
        *(path for group in WATCHED.values() for path in group),
    ]
    metrics = list(Metric.objects.select_related("component").order_by("pk"))
    moving, falling = metrics[0], metrics[1]
    Component.objects.filter(pk__in=[moving.component_id, falling.component_id]).update(
        status_mode=StatusMode.AUTOMATIC
    )
    for prefix in prefixes:
        for path in paths:
            client.get(prefix + path)
    page_cache.renders.clear()
    started_at = time.time()
    figures = {"samples": 0, "edits": 0, "errors": 0}
    writer = threading.Thread(target=write_churn, args=(metrics, moving, falling, seconds, figures))
    writer.start()
    while writer.is_alive():
        for prefix in prefixes:
            for path in paths:
                if client.get(prefix + path).status_code != 200:
                    figures["errors"] += 1
    since = {"created_at__gte": _utc(started_at)}
    figures["edits"] += Incident.objects.filter(**since).count()
    connection.queries_log.clear()

    def renders(path: str) -> int:
        return sum(page_cache.renders[prefix + path] for prefix in prefixes)

    for name, group in WATCHED.items():
        figures[f"renders_{name}"] = max(renders(path) for path in group)
    return figures


def _utc(epoch: float):
    import datetime as dt

    return dt.datetime.fromtimestamp(epoch, tz=dt.UTC)


def write_churn(metrics, moving, falling, seconds: int, figures: dict) -> None:
    from django.db import connection
    from django.utils import timezone

    from incidents.lifecycle.commands import DeclareIncident, PostUpdate
    from incidents.lifecycle.opening import declare_incident
    from incidents.lifecycle.updates import post_update
    from incidents.services.health import evaluate_metrics, group_samples
    from incidents.services.metrics import NewSample, record_samples

    published = None
    began = time.monotonic()
    for tick in range(seconds):
        now = timezone.now()
        entries = []
        for metric in metrics:
            value = 120.0
            if metric.pk == moving.pk and (tick // 10) % 2 == 1:
                value = 600.0  # over the degraded threshold: the component's status moves
            if metric.pk == falling.pk and 30 <= tick < 40:
                value = 5000.0  # a major outage: the component goes down and a draft opens
            entries.append(NewSample(metric, value, now))
        record_samples(entries)
        evaluate_metrics(group_samples(entries), metrics={metric.pk: metric for metric in metrics})
        figures["samples"] += len(entries)
        if tick == seconds // 3:
            published = declare_incident(
                DeclareIncident(title="Churn: slow webhooks", language="en", body="Investigating."),
                actor=None,
            )
        if tick == 2 * seconds // 3 and published is not None:
            post_update(
                published,
                PostUpdate(status="identified", body={"en": "Found it."}, language="en"),
                actor=None,
            )
            figures["edits"] += 1
        time.sleep(max(0.0, began + tick + 1 - time.monotonic()))
    connection.close()


def reply(value) -> None:
    sys.stdout.write(json.dumps(value) + "\n")
    sys.stdout.flush()


class Site:
    """A child process serving one dataset's pages, one request at a time."""

    def __init__(
        self,
        dataset: str,
        *,
        database: Path | str,
        var_dir: Path,
        page_cache: bool = False,
        debug: bool = True,
        redis: bool = False,
    ):
        var_dir.mkdir(parents=True, exist_ok=True)
        env = {
            **os.environ,
            "DATABASE_URL": database if isinstance(database, str) else f"sqlite:///{database}",
            # Its own cache and snapshot folders: the processes must not share cached pages.
            "STATUSPAGE_VAR_DIR": str(var_dir),
            # Off as users run it; on, Django keeps every query, which the counts read.
            "DEBUG": "1" if debug else "0",
            "LOCAL_RUN": "1",
            "LOG_LEVEL": "ERROR",
        }
        if not page_cache:
            env["PUBLIC_PAGE_CACHE_SECONDS"] = "0"  # timed requests turn it on when they want it
        if not redis:
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

    def ask(self, command: str, argument: str):
        self.process.stdin.write(f"{command} {argument}\n")
        self.process.stdin.flush()
        return self._read()

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait()


def database_of(dataset: str, var_dir: Path) -> Path:
    """Named after the builder's source, so a changed builder builds afresh."""
    builder = ROOT / "incidents" / "management" / "commands" / "build_site_history.py"
    digest = hashlib.sha256(builder.read_bytes()).hexdigest()[:8]
    return var_dir / f"bench-site-{dataset}-{digest}.sqlite3"


def p50(site: Site, command: str, path: str, runs: int) -> float:
    return statistics.median(site.ask(command, path) for _ in range(runs))


def main() -> None:
    var_dir = Path(os.environ.get("STATUSPAGE_VAR_DIR", ROOT / "var"))
    var_dir.mkdir(parents=True, exist_ok=True)
    runs = int(os.environ.get("BENCH_SITE_RUNS", "60"))
    churn_seconds = int(os.environ.get("BENCH_SITE_CHURN_SECONDS", "60"))
    # Both datasets are served at once and their requests alternate, one at a time: on the
    # 2-core machine paired requests share whatever slowed a run, where runs of one dataset
    # after the other did not.
    sites = {}
    for dataset in ("small", "large"):  # built one after the other: both builds are heavy
        sites[dataset] = Site(
            dataset, database=database_of(dataset, var_dir), var_dir=var_dir / f"bench-site-{dataset}"
        )
        shape = " ".join(f"{name}={count}" for name, count in sites[dataset].ready["shape"].items())
        print(f"{dataset} dataset: {shape}", file=sys.stderr)
    same_shown(sites)
    worst, most = 0.0, 0
    wanted = os.environ.get("BENCH_SITE_PAGES", "").split(",")  # e.g. "uptime,history"; all by default
    for name in sites["small"].ready["pages"]:
        if wanted != [""] and name not in wanted:
            continue
        paths = {dataset: site.ready["pages"][name] for dataset, site in sites.items()}
        queries = {dataset: site.ask("count", paths[dataset]) for dataset, site in sites.items()}
        for _ in range(WARM_UP):
            for dataset, site in sites.items():
                site.ask("time", paths[dataset])
        timings: dict[str, list[float]] = {"small": [], "large": []}
        for _ in range(runs):
            for dataset, site in sites.items():
                timings[dataset].append(site.ask("time", paths[dataset]))
        small, large = statistics.median(timings["small"]), statistics.median(timings["large"])
        cached = {dataset: p50(site, "cached", paths[dataset], runs) for dataset, site in sites.items()}
        ratio = statistics.median(b / a for a, b in zip(timings["small"], timings["large"], strict=True))
        worst, most = max(worst, ratio), max(most, queries["small"], queries["large"])
        print(
            f"page={name} queries_small={queries['small']} queries_large={queries['large']} "
            f"p50_ms_small={small:.1f} p50_ms_large={large:.1f} ratio={ratio:.2f} "
            f"cached_p50_ms_small={cached['small']:.2f} cached_p50_ms_large={cached['large']:.2f}",
            flush=True,
        )
    for site in sites.values():
        site.close()
    render = render_figures(var_dir, runs=int(os.environ.get("BENCH_SITE_RENDER_RUNS", "40")))
    print(churn_line(var_dir, seconds=churn_seconds), flush=True)
    print(
        f"site: worst_ratio={worst:.2f} max_queries={most} render_ms={render['render_ms']:.1f} "
        f"live_render_ms={render['live_render_ms']:.1f} overview_bytes={render['overview_bytes']}"
        + (f" pg_render_ms={render['pg_render_ms']:.1f}" if "pg_render_ms" in render else "")
    )


def render_figures(var_dir: Path, *, runs: int) -> dict:
    """The overview's render after a content change and after a live one, on fresh demo data."""
    database = var_dir / "bench-site-demo.sqlite3"
    database.unlink(missing_ok=True)
    demo_dir = var_dir / "bench-site-demo"
    shutil.rmtree(demo_dir, ignore_errors=True)
    site = Site("demo", database=database, var_dir=demo_dir, page_cache=True, debug=False)
    figures = {"overview_bytes": site.ready["overview_bytes"]}
    for name, command in (("render", "render"), ("live_render", "live")):
        for _ in range(WARM_UP):
            site.ask(command, "/")
        figures[f"{name}_ms"] = p50(site, command, "/", runs)
        figures[f"{name}_calls"] = site.ask(f"{command}-calls", "/")
    site.close()
    database.unlink()
    print(
        f"overview: render_ms={figures['render_ms']:.1f} live_render_ms={figures['live_render_ms']:.1f} "
        f"render_calls={figures['render_calls']} live_render_calls={figures['live_render_calls']} "
        f"overview_bytes={figures['overview_bytes']}",
        file=sys.stderr,
    )
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith(("postgres://", "postgresql://")):
        figures["pg_render_ms"] = postgresql_render_ms(url, var_dir, runs=runs)
    return figures


def postgresql_render_ms(url: str, var_dir: Path, *, runs: int) -> float:
    """render_ms on PostgreSQL (with Redis when REDIS_URL is set), as users run it there: fresh demo
    data in a database of its own beside the one DATABASE_URL names, made again on each run."""
    import psycopg

    base, _slash, name = url.rpartition("/")
    database = f"{name.split('?')[0]}_bench_render"
    with psycopg.connect(f"{base}/postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{database}"')
        admin.execute(f'CREATE DATABASE "{database}"')
    demo_dir = var_dir / "bench-site-demo-pg"
    shutil.rmtree(demo_dir, ignore_errors=True)
    site = Site(
        "demo", database=f"{base}/{database}", var_dir=demo_dir, page_cache=True, debug=False, redis=True
    )
    for _ in range(WARM_UP):
        site.ask("render", "/")
    found = p50(site, "render", "/", runs)
    site.close()
    print(f"overview on PostgreSQL: pg_render_ms={found:.1f}", file=sys.stderr)
    return found


def churn_line(var_dir: Path, *, seconds: int) -> str:
    """The churn run, on a copy of the large dataset (it writes samples and incidents)."""
    copy = var_dir / "bench-site-churn.sqlite3"
    shutil.copyfile(database_of("large", var_dir), copy)
    churn_dir = var_dir / "bench-site-churn"
    shutil.rmtree(churn_dir, ignore_errors=True)
    site = Site("churn", database=copy, var_dir=churn_dir, page_cache=True)
    figures = site.ask("churn", str(seconds))
    site.close()
    copy.unlink()
    if figures["errors"]:
        print(f"churn: {figures['errors']} requests did not answer 200", file=sys.stderr)
    return (
        f"churn: samples={figures['samples']} edits={figures['edits']} "
        f"renders_history={figures['renders_history']} renders_feeds={figures['renders_feeds']} "
        f"renders_maintenance={figures['renders_maintenance']}"
    )


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--child":
        child(sys.argv[2])
    else:
        main()
