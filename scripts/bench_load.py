#!/usr/bin/env python
"""The app direct and through the shipped nginx configuration, against nginx serving the same
bytes statically.

    make bench-load            (or: .venv/bin/python scripts/bench_load.py)

Runs gunicorn as the README does (cores + 1 gthread workers x 4 threads, DEBUG off, PostgreSQL
and Redis when DATABASE_URL and REDIS_URL are set, SQLite and the file cache otherwise) on
127.0.0.1:8810 with the demo data and exports the snapshot of the same data; one nginx serves
deploy/nginx/statuspage.conf (proxying the app, falling back to the snapshot) on 8812 and
deploy/nginx/snapshot.conf (the snapshot only) on 8811. wrk loads each target (100
connections, 15 s; BENCH_LOAD_SECONDS changes it) after an untimed 2 s warm-up run, direct,
through nginx and static; then the overview direct with the page cache off; then, with the app
stopped, one request each for a page nginx has cached and one it has not (the snapshot).
Prints:
    target=<name> direct_rps=<d> direct_p99_ms=<p> nginx_rps=<n> nginx_p99_ms=<q> static_rps=<s> direct_ratio=<d/s> nginx_ratio=<n/s> errors=<e>
    target=overview-uncached direct_rps=<u>
    errors: target=<name> <direct|nginx|static> timeout=<n> read=<n> … (one line for each run with errors)
    fallback: cached=<status> snapshot=<status>
    load: worst_ratio=<lowest nginx_ratio> direct_ratio=<lowest direct_ratio> uncached_rps=<u> errors=<e>
Needs nginx and wrk (apt-get install -y nginx wrk); exits non-zero without them.
"""

import os
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request
from pathlib import Path

from bench_stack import (
    GUNICORN_WORKERS,
    ROOT,
    environment,
    missing_tools,
    prepare,
    start_app,
    start_nginx,
    stop,
    wrk,
)

APP_PORT = int(os.environ.get("BENCH_LOAD_APP_PORT", "8810"))
STATIC_PORT = int(os.environ.get("BENCH_LOAD_STATIC_PORT", "8811"))
NGINX_PORT = int(os.environ.get("BENCH_LOAD_NGINX_PORT", "8812"))
SECONDS = int(os.environ.get("BENCH_LOAD_SECONDS", "15"))
CONNECTIONS = 100
WARM_SECONDS = 2
TARGETS = {"overview": "/", "summary": "/api/v2/summary.json", "atom": "/history.atom"}
# Never requested through nginx before the app stops, so nginx answers it from the snapshot.
NOT_CACHED = "/maintenance/"


def main() -> int:
    missing = missing_tools()
    if missing:
        print(f"bench-load {missing}", file=sys.stderr)
        return 2
    env = environment(Path(os.environ.get("STATUSPAGE_VAR_DIR", ROOT / "var")) / "bench-load")
    prepare(env)
    workers = int(os.environ.get("BENCH_LOAD_WORKERS", GUNICORN_WORKERS))
    results = {}
    with tempfile.TemporaryDirectory(prefix="bench-load-") as scratch:
        snapshot = Path(env["STATUS_SNAPSHOT_DIR"]) / "current"
        nginx = start_nginx(
            Path(scratch),
            snapshot,
            proxy_port=NGINX_PORT,
            static_port=STATIC_PORT,
            upstreams=[f"127.0.0.1:{APP_PORT}"],
        )
        try:
            app = start_app(env, port=APP_PORT, workers=workers)
            try:
                for name, path in TARGETS.items():
                    results[name] = {port: load(port, path) for port in (APP_PORT, NGINX_PORT, STATIC_PORT)}
            finally:
                stop(app)
            fallback = {"cached": status(NGINX_PORT, "/"), "snapshot": status(NGINX_PORT, NOT_CACHED)}
            app = start_app({**env, "PUBLIC_PAGE_CACHE_SECONDS": "0"}, port=APP_PORT, workers=workers)
            try:
                uncached = load(APP_PORT, "/")
            finally:
                stop(app)
        finally:
            stop(nginx)
    report(results, uncached, fallback)
    return 0


def report(results: dict, uncached: dict, fallback: dict) -> None:
    errors = uncached["errors"] + sum(1 for code in fallback.values() if code != 200)
    direct_ratios, nginx_ratios = [], []
    for name, runs in results.items():
        direct, proxied, static = runs[APP_PORT], runs[NGINX_PORT], runs[STATIC_PORT]
        direct_ratios.append(direct["rps"] / static["rps"] if static["rps"] else 0.0)
        nginx_ratios.append(proxied["rps"] / static["rps"] if static["rps"] else 0.0)
        target_errors = direct["errors"] + proxied["errors"] + static["errors"]
        errors += target_errors
        print(
            f"target={name} direct_rps={direct['rps']:.0f} direct_p99_ms={direct['p99_ms']:.1f} "
            f"nginx_rps={proxied['rps']:.0f} nginx_p99_ms={proxied['p99_ms']:.1f} "
            f"static_rps={static['rps']:.0f} direct_ratio={direct_ratios[-1]:.3f} "
            f"nginx_ratio={nginx_ratios[-1]:.3f} errors={target_errors}"
        )
    print(f"target=overview-uncached direct_rps={uncached['rps']:.0f}")
    for name, runs in [*results.items(), ("overview-uncached", {APP_PORT: uncached})]:
        for port, where in ((APP_PORT, "direct"), (NGINX_PORT, "nginx"), (STATIC_PORT, "static")):
            if port in runs and runs[port]["errors"]:
                kinds = " ".join(f"{kind}={n}" for kind, n in runs[port]["kinds"].items())
                print(f"errors: target={name} {where} {kinds}")
    print(f"fallback: cached={fallback['cached']} snapshot={fallback['snapshot']}")
    print(
        f"load: worst_ratio={min(nginx_ratios):.3f} direct_ratio={min(direct_ratios):.3f} "
        f"uncached_rps={uncached['rps']:.0f} errors={errors}"
    )


def load(port: int, path: str) -> dict:
    warm(port, path)
    return wrk(f"http://127.0.0.1:{port}{path}", connections=CONNECTIONS, seconds=SECONDS)


def status(port: int, path: str) -> int:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def warm(port: int, path: str) -> None:
    """One request to check the answer, then a short untimed run so that every worker has
    loaded its code, templates and catalogs before the measured run starts."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=30) as response:
        if response.status != 200:
            raise SystemExit(f"{path} on port {port} answered {response.status}")
    subprocess.run(
        ["wrk", "-t2", f"-c{CONNECTIONS}", f"-d{WARM_SECONDS}s", f"http://127.0.0.1:{port}{path}"],
        capture_output=True,
        check=True,
    )


if __name__ == "__main__":
    sys.exit(main())
