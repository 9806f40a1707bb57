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
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = str(ROOT / ".venv/bin/python")
GUNICORN = str(ROOT / ".venv/bin/gunicorn")
APP_PORT = int(os.environ.get("BENCH_LOAD_APP_PORT", "8810"))
STATIC_PORT = int(os.environ.get("BENCH_LOAD_STATIC_PORT", "8811"))
NGINX_PORT = int(os.environ.get("BENCH_LOAD_NGINX_PORT", "8812"))
SECONDS = int(os.environ.get("BENCH_LOAD_SECONDS", "15"))
CONNECTIONS = 100
# As the README runs it in production; BENCH_LOAD_WORKER_OPTIONS="" tries plain sync workers.
GUNICORN_WORKERS = (os.cpu_count() or 1) + 1
GUNICORN_WORKER_OPTIONS = os.environ.get("BENCH_LOAD_WORKER_OPTIONS", "-k gthread --threads 4").split()
WARM_SECONDS = 2
TARGETS = {"overview": "/", "summary": "/api/v2/summary.json", "atom": "/history.atom"}
# Never requested through nginx before the app stops, so nginx answers it from the snapshot.
NOT_CACHED = "/maintenance/"
WSGI_APPLICATION = os.environ.get("BENCH_LOAD_WSGI", "statuspage.wsgi")


def main() -> int:
    missing = [tool for tool in ("nginx", "wrk") if not shutil.which(tool)]
    if missing:
        print(
            f"bench-load needs {' and '.join(missing)}: install with `apt-get install -y nginx wrk`",
            file=sys.stderr,
        )
        return 2
    var = Path(os.environ.get("STATUSPAGE_VAR_DIR", ROOT / "var")) / "bench-load"
    var.mkdir(parents=True, exist_ok=True)
    os.chmod(var, 0o755)
    env = {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_SSL_REDIRECT": "0",
        "STATUSPAGE_VAR_DIR": str(var),
        "STATUS_SNAPSHOT_DIR": str(var / "snapshot"),
        "EMAIL_BACKEND": "console",
        "LOG_LEVEL": "WARNING",
    }
    manage = [PYTHON, str(ROOT / "manage.py")]
    for command in (
        ["compile_catalogs"],
        ["migrate", "--noinput"],
        ["load_demo"],
        ["collectstatic", "--noinput"],
    ):
        subprocess.run(manage + command, env=env, check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
    subprocess.run(manage + ["export_site"], env=env, check=True, cwd=ROOT, stdout=sys.stderr)
    workers = int(os.environ.get("BENCH_LOAD_WORKERS", GUNICORN_WORKERS))
    results = {}
    with tempfile.TemporaryDirectory(prefix="bench-load-") as scratch:
        nginx = start_nginx(Path(scratch), var / "snapshot" / "current")
        try:
            app = start_app(env, workers)
            try:
                for name, path in TARGETS.items():
                    results[name] = {port: load(port, path) for port in (APP_PORT, NGINX_PORT, STATIC_PORT)}
            finally:
                stop(app)
            fallback = {"cached": status(NGINX_PORT, "/"), "snapshot": status(NGINX_PORT, NOT_CACHED)}
            app = start_app({**env, "PUBLIC_PAGE_CACHE_SECONDS": "0"}, workers)
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
    return wrk(port, path)


def status(port: int, path: str) -> int:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def start_app(env: dict, workers: int) -> subprocess.Popen:
    process = subprocess.Popen(
        [
            GUNICORN,
            WSGI_APPLICATION,
            "-w",
            str(workers),
            *GUNICORN_WORKER_OPTIONS,
            "-b",
            f"127.0.0.1:{APP_PORT}",
            "--log-level",
            "warning",
        ],
        env=env,
        cwd=ROOT,
    )
    wait_for(APP_PORT, process)
    return process


def start_nginx(scratch: Path, snapshot: Path) -> subprocess.Popen:
    """One nginx: the shipped proxy configuration on NGINX_PORT, the snapshot only on STATIC_PORT."""
    deploy = ROOT / "deploy/nginx"
    proxy = (deploy / "statuspage.conf").read_text()
    proxy = re.sub(r"listen 80;.*", f"listen 127.0.0.1:{NGINX_PORT};", proxy)
    proxy = re.sub(r"server 127.0.0.1:8000;.*", f"server 127.0.0.1:{APP_PORT};", proxy)
    proxy = re.sub(
        r"proxy_cache_path /var/cache/nginx/statuspage ", f"proxy_cache_path {scratch}/cache ", proxy
    )
    static = (deploy / "snapshot.conf").read_text()
    static = re.sub(r"listen 80;.*", f"listen 127.0.0.1:{STATIC_PORT};", static)
    for name, text in (("statuspage.conf", proxy), ("snapshot.conf", static)):
        text = re.sub(r"root /srv/statuspage/snapshot/current;.*", f"root {snapshot};", text)
        (scratch / name).write_text(text)
    for folder in ("body", "proxy", "fastcgi", "uwsgi", "scgi", "cache"):
        (scratch / folder).mkdir()
    (scratch / "nginx.conf").write_text(
        f"""worker_processes {os.cpu_count() or 1};
pid {scratch}/nginx.pid;
error_log {scratch}/error.log warn;
daemon off;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    sendfile on;
    keepalive_requests 100000;
    client_body_temp_path {scratch}/body;
    proxy_temp_path {scratch}/proxy;
    fastcgi_temp_path {scratch}/fastcgi;
    uwsgi_temp_path {scratch}/uwsgi;
    scgi_temp_path {scratch}/scgi;
    include {deploy}/languages.conf;
    include {scratch}/statuspage.conf;
    include {scratch}/snapshot.conf;
}}
"""
    )
    os.chmod(scratch, 0o755)
    process = subprocess.Popen(["nginx", "-p", str(scratch), "-c", str(scratch / "nginx.conf")])
    wait_for(STATIC_PORT, process)
    return process


def wait_for(port: int, process: subprocess.Popen) -> None:
    for _ in range(300):
        if process.poll() is not None:
            raise SystemExit(f"server on port {port} exited with {process.returncode}")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2)
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"nothing answered on port {port}")


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


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0}


def wrk(port: int, path: str) -> dict:
    output = subprocess.run(
        ["wrk", "-t2", f"-c{CONNECTIONS}", f"-d{SECONDS}s", "--latency", f"http://127.0.0.1:{port}{path}"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    value, unit = re.search(r"99%\s+([\d.]+)(us|ms|s)", output).groups()
    kinds = {kind: int(n) for kind, n in re.findall(r"(connect|read|write|timeout) (\d+)", output)}
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    kinds["non-2xx"] = int(non_2xx.group(1)) if non_2xx else 0
    kinds = {kind: n for kind, n in kinds.items() if n}
    return {"rps": rps, "p99_ms": float(value) * UNITS[unit], "errors": sum(kinds.values()), "kinds": kinds}


if __name__ == "__main__":
    sys.exit(main())
