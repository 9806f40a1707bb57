#!/usr/bin/env python
"""The page everyone refreshes during an incident, while it changes: the shipped nginx in front
of the app as the README deploys it, under a surge of readers, with updates and samples arriving.

    make bench-surge            (or: .venv/bin/python scripts/bench_surge.py)

The stack of scripts/bench_stack.py (gunicorn as in production, PostgreSQL and Redis when
DATABASE_URL and REDIS_URL are set; demo data; deploy/nginx/statuspage.conf on 8832 in front of
the app on 8830, deploy/nginx/snapshot.conf serving the snapshot of the same data on 8831).
wrk, 200 connections, goes round the overview in its four languages, three component pages,
the open incident's page and /api/v2/summary.json: first against the snapshot for
BENCH_SURGE_STATIC_SECONDS (30; nginx serving the same pages statically, the baseline), then
through the app's nginx for BENCH_SURGE_SECONDS (120) plus 15 s. During the first
BENCH_SURGE_SECONDS: every second a sample for every demo metric through its push probe, every
5 s an update to the open incident through the REST API, both through nginx as clients send
them; a reader polls the incident page through nginx and notes when each update's text first
shows, another polls /api/v2/summary.json and notes when each metric's figure is at least as new
as each sample. Renders are read from the app's own /metrics (statuspage_page_renders).
Prints:
    prepare: export_s=<seconds the snapshot export took>
    static: rps=<n> p50_ms=<n> p99_ms=<n> errors=<n>
    surge-load: rps=<n> p50_ms=<n> p99_ms=<n> errors=<n> <kind>=<n>…
    updates: posted=<n> seen=<n> refused=<updates and samples refused> fresh_p50_s=<n> fresh_max_s=<n>
    samples: posted=<n> seen=<n> live_p50_s=<n> live_p99_s=<n> refresh_s=<PUBLIC_METRICS_REFRESH_SECONDS>
    surge: ratio=<surge rps / static rps> p50_ms=<n> p99_ms=<n> errors=<n> fresh_p99_s=<slowest update> live_p99_s=<n> renders=<n>
nginx's error log is kept in var/bench-surge/nginx-error.log. errors counts wrk's socket errors and non-2xx answers, refused posts and updates or samples
never seen. Goals (docs/resilience.md, "Freshness"): ratio >= 0.8, p99 <= 100 ms, errors 0,
fresh_p99_s <= 6, live_p99_s <= the refresh interval + 2. Needs nginx and wrk.
"""

import datetime as dt
import json
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from bench_stack import ROOT, environment, manage, missing_tools, prepare, start_app, start_nginx, stop, wrk

APP_PORT = int(os.environ.get("BENCH_SURGE_APP_PORT", "8830"))
STATIC_PORT = int(os.environ.get("BENCH_SURGE_STATIC_PORT", "8831"))
NGINX_PORT = int(os.environ.get("BENCH_SURGE_NGINX_PORT", "8832"))
SECONDS = int(os.environ.get("BENCH_SURGE_SECONDS", "120"))
STATIC_SECONDS = int(os.environ.get("BENCH_SURGE_STATIC_SECONDS", "30"))
# After the last update and sample the readers keep reading (and wrk loading) this long.
TAIL_SECONDS = 15
CONNECTIONS = 200
UPDATE_EVERY = 5.0
SAMPLE_EVERY = 1.0
POLL_EVERY = 0.1
NGINX = f"http://127.0.0.1:{NGINX_PORT}"
LANGUAGE_PREFIXES = ("/", "/ru/", "/es/", "/nb/")

SETUP = """
import json
from django.conf import settings
from django.contrib.auth import get_user_model
from incidents.models import Component, Incident, Probe, TokenScope
from incidents.services.api_tokens import issue_token
from incidents.services.probes import issue_push_token
admin = get_user_model().objects.get(username="admin")
incident = Incident.objects.filter(status__in=["investigating", "identified", "monitoring"]).order_by("pk").first()
print(json.dumps({
    "token": issue_token(admin, name="bench-surge", scope=TokenScope.READ_WRITE, actor=admin)[1],
    "incident": {"id": incident.public_id, "slug": incident.slug, "status": incident.status},
    "components": list(Component.objects.order_by("pk").values_list("slug", flat=True)[:3]),
    "probes": [
        {
            "metric": probe.metric.slug,
            "value": probe.metric.latest_value if probe.metric.latest_value is not None else 0,
            "id": probe.public_id,
            "token": issue_push_token(probe, actor=admin),
        }
        for probe in Probe.objects.filter(kind="push", enabled=True).select_related("metric").order_by("metric_id")
    ],
    "refresh_s": settings.PUBLIC_METRICS_REFRESH_SECONDS,
}))
"""


def main() -> int:
    missing = missing_tools()
    if missing:
        print(f"bench-surge {missing}", file=sys.stderr)
        return 2
    env = environment(Path(os.environ.get("STATUSPAGE_VAR_DIR", ROOT / "var")) / "bench-surge")
    export_seconds = prepare(env)
    manage(env, "ensure_admin")
    setup = json.loads(manage(env, "shell", "-c", SETUP, capture=True).strip().splitlines()[-1])
    paths = [
        *LANGUAGE_PREFIXES,
        *(f"/components/{slug}/" for slug in setup["components"]),
        f"/incidents/{setup['incident']['slug']}/",
        "/api/v2/summary.json",
    ]
    print(f"prepare: export_s={export_seconds:.1f}")
    with tempfile.TemporaryDirectory(prefix="bench-surge-") as scratch:
        script = round_robin(Path(scratch) / "paths.lua", paths)
        nginx = start_nginx(
            Path(scratch),
            Path(env["STATUS_SNAPSHOT_DIR"]) / "current",
            proxy_port=NGINX_PORT,
            static_port=STATIC_PORT,
            upstreams=[f"127.0.0.1:{APP_PORT}"],
        )
        try:
            app = start_app(env, port=APP_PORT)
            try:
                for port in (STATIC_PORT, NGINX_PORT):
                    check_answers(port, paths)
                static = load(STATIC_PORT, script, STATIC_SECONDS)
                print_load("static", static)
                renders_before = renders()
                surge = Surge(setup)
                surge.start()
                loaded = load(NGINX_PORT, script, SECONDS + TAIL_SECONDS)
                surge.stop()
                rendered = renders() - renders_before
            finally:
                stop(app)
        finally:
            stop(nginx)
            shutil.copy(Path(scratch) / "error.log", Path(env["STATUSPAGE_VAR_DIR"]) / "nginx-error.log")
    report(static, loaded, surge, rendered, setup["refresh_s"])
    return 0


def round_robin(path: Path, paths: list[str]) -> Path:
    """A wrk script that asks for each path in turn."""
    listed = ", ".join(json.dumps(p) for p in paths)
    path.write_text(
        f"local paths = {{{listed}}}\nlocal i = 0\n"
        "request = function()\n  i = i % #paths + 1\n  return wrk.format('GET', paths[i])\nend\n"
    )
    return path


def check_answers(port: int, paths: list[str]) -> None:
    for path in paths:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=30) as response:
            if response.status != 200:
                raise SystemExit(f"{path} on port {port} answered {response.status}")


def load(port: int, script: Path, seconds: float) -> dict:
    return wrk(f"http://127.0.0.1:{port}", connections=CONNECTIONS, seconds=seconds, script=script)


def renders() -> float:
    """Renders so far, every page and document, as the app's /metrics counts them."""
    with urllib.request.urlopen(f"http://127.0.0.1:{APP_PORT}/metrics", timeout=30) as response:
        text = response.read().decode()
    return sum(
        float(line.rsplit(" ", 1)[1])
        for line in text.splitlines()
        if line.startswith("statuspage_page_renders_total{")
    )


@dataclass
class Posted:
    """An update or a sample: what to look for, and when the server answered that it had it."""

    key: str
    sent_at: float  # time.time() before sending
    answered_at: float
    seen_at: float | None = None


@dataclass
class Surge:
    """Writers (updates, samples) and readers (incident page, summary) running beside wrk."""

    setup: dict
    updates: list[Posted] = field(default_factory=list)
    samples: dict[str, list[Posted]] = field(default_factory=dict)
    refused: int = 0
    done: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)
    threads: list[threading.Thread] = field(default_factory=list)

    def start(self) -> None:
        samplers = [lambda probe=probe: self.post_samples(probe) for probe in self.setup["probes"]]
        for target in (self.post_updates, *samplers, self.read_incident, self.read_summary):
            thread = threading.Thread(target=target, daemon=True)
            thread.start()
            self.threads.append(thread)

    def stop(self) -> None:
        self.done.set()
        for thread in self.threads:
            thread.join(timeout=30)

    def post_updates(self) -> None:
        incident = self.setup["incident"]
        started = time.monotonic()
        for number in range(1, int(SECONDS / UPDATE_EVERY) + 1):
            if not on_time(started + number * UPDATE_EVERY, started):
                continue
            text = f"Surge check {number:02d}-{os.urandom(4).hex()}"
            body = {
                "status": incident["status"],
                "language": "en",
                "body": text,
                "deliver_notifications": False,
            }
            sent = time.time()
            if post(f"/api/v1/incidents/{incident['id']}/updates/", body, self.setup["token"]):
                with self.lock:
                    self.updates.append(Posted(text, sent, time.time()))
            else:
                with self.lock:
                    self.refused += 1

    def post_samples(self, probe: dict) -> None:
        """One metric's samples, one a second (a system pushing its figure)."""
        started = time.monotonic()
        for second in range(1, int(SECONDS / SAMPLE_EVERY) + 1):
            if not on_time(started + second * SAMPLE_EVERY, started):
                continue
            sent = time.time()
            # The metric's own latest value: the figure's time moves, its status stays.
            if post(f"/probes/push/{probe['id']}/", {"value": probe["value"]}, probe["token"]):
                with self.lock:
                    self.samples.setdefault(probe["metric"], []).append(
                        Posted(probe["metric"], sent, time.time())
                    )
            else:
                with self.lock:
                    self.refused += 1

    def read_incident(self) -> None:
        path = f"/incidents/{self.setup['incident']['slug']}/"
        while not self.done.is_set():
            page = fetch(path)
            now = time.time()
            with self.lock:
                for update in self.updates:
                    if update.seen_at is None and update.key.encode() in page:
                        update.seen_at = now
            time.sleep(POLL_EVERY)

    def read_summary(self) -> None:
        while not self.done.is_set():
            try:
                document = json.loads(fetch("/api/v2/summary.json") or b"{}")
            except ValueError:  # a cut-off answer: read again
                document = {}
            now = time.time()
            shown = {
                metric["id"]: parse_time(metric["measured_at"])
                for component in document.get("components", [])
                for metric in component.get("x_metrics", [])
                if metric.get("measured_at")
            }
            with self.lock:
                for metric, posted in self.samples.items():
                    measured = shown.get(metric)
                    for sample in posted:
                        # The figure is this sample's or a newer one (measured after it was sent).
                        if (
                            sample.seen_at is None
                            and measured is not None
                            and measured >= sample.sent_at - 0.001
                        ):
                            sample.seen_at = now
            time.sleep(POLL_EVERY)


def on_time(moment: float, started: float) -> bool:
    """Waits for `moment`; False when it has passed by a whole second or lies past the writing
    time (a writer held up by a slow answer skips a turn rather than posting a burst late)."""
    late = time.monotonic() - moment
    if late > 1.0 or moment > started + SECONDS:
        return False
    time.sleep(max(0.0, -late))
    return True


def post(path: str, body: dict, token: str) -> bool:
    request = urllib.request.Request(
        NGINX + path,
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return 200 <= response.status < 300
    except urllib.error.HTTPError as error:
        print(f"refused: {path} {error.code} {error.read()[:200]!r}", file=sys.stderr)
        return False
    except OSError as error:
        print(f"failed: {path} {error}", file=sys.stderr)
        return False


def fetch(path: str) -> bytes:
    try:
        with urllib.request.urlopen(NGINX + path, timeout=30) as response:
            return response.read()
    except OSError:
        return b""


def parse_time(stamp: str) -> float:
    return dt.datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=dt.UTC).timestamp()


def delays(posted: list[Posted]) -> list[float]:
    return sorted(max(0.0, item.seen_at - item.answered_at) for item in posted if item.seen_at is not None)


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile of sorted values (the largest for share 1)."""
    if not values:
        return float("nan")
    return values[min(len(values) - 1, max(0, round(share * len(values)) - 1))]


def print_load(name: str, result: dict) -> None:
    kinds = "".join(f" {kind}={n}" for kind, n in result["kinds"].items())
    print(
        f"{name}: rps={result['rps']:.0f} p50_ms={result['p50_ms']:.1f} "
        f"p99_ms={result['p99_ms']:.1f} errors={result['errors']}{kinds}"
    )


def report(static: dict, loaded: dict, surge: Surge, rendered: float, refresh_seconds: int) -> None:
    print_load("surge-load", loaded)
    fresh = delays(surge.updates)
    samples = [sample for posted in surge.samples.values() for sample in posted]
    live = delays(samples)
    unseen = len(surge.updates) - len(fresh) + len(samples) - len(live)
    print(
        f"updates: posted={len(surge.updates)} seen={len(fresh)} refused={surge.refused} "
        f"fresh_p50_s={statistics.median(fresh) if fresh else float('nan'):.2f} "
        f"fresh_max_s={percentile(fresh, 1.0):.2f}"
    )
    print(
        f"samples: posted={len(samples)} seen={len(live)} "
        f"live_p50_s={statistics.median(live) if live else float('nan'):.2f} "
        f"live_p99_s={percentile(live, 0.99):.2f} refresh_s={refresh_seconds}"
    )
    errors = loaded["errors"] + surge.refused + unseen
    ratio = loaded["rps"] / static["rps"] if static["rps"] else 0.0
    print(
        f"surge: ratio={ratio:.3f} p50_ms={loaded['p50_ms']:.1f} p99_ms={loaded['p99_ms']:.1f} "
        f"errors={errors} fresh_p99_s={percentile(fresh, 1.0):.2f} "
        f"live_p99_s={percentile(live, 0.99):.2f} renders={rendered:.0f}"
    )


if __name__ == "__main__":
    sys.exit(main())
