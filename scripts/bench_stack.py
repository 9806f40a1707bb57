"""The stack the load benchmarks run, as the README deploys it: gunicorn (cores + 1 gthread
workers x 4 threads, DEBUG off, PostgreSQL and Redis when DATABASE_URL and REDIS_URL are set,
SQLite and the file cache otherwise) on the demo data, one nginx with the shipped
deploy/nginx/statuspage.conf in front of it and deploy/nginx/snapshot.conf serving the snapshot
of the same data, and wrk to load them. Used by scripts/bench_load.py and scripts/bench_surge.py.
"""

import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = str(ROOT / ".venv/bin/python")
GUNICORN = str(ROOT / ".venv/bin/gunicorn")
# As the README runs it in production; BENCH_LOAD_WORKER_OPTIONS="" tries plain sync workers.
GUNICORN_WORKERS = (os.cpu_count() or 1) + 1
GUNICORN_WORKER_OPTIONS = os.environ.get("BENCH_LOAD_WORKER_OPTIONS", "-k gthread --threads 4").split()
WSGI_APPLICATION = os.environ.get("BENCH_LOAD_WSGI", "statuspage.wsgi")
UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0}


def missing_tools() -> str | None:
    """A hint naming what is missing (nginx, wrk), or None when both are installed."""
    missing = [tool for tool in ("nginx", "wrk") if not shutil.which(tool)]
    if not missing:
        return None
    return f"needs {' and '.join(missing)}: install with `apt-get install -y nginx wrk`"


def environment(var: Path, **extra: str) -> dict[str, str]:
    """Production settings for a private folder `var` (the database, cache and snapshot)."""
    var.mkdir(parents=True, exist_ok=True)
    os.chmod(var, 0o755)
    return {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_SSL_REDIRECT": "0",
        "STATUSPAGE_VAR_DIR": str(var),
        "STATUS_SNAPSHOT_DIR": str(var / "snapshot"),
        "EMAIL_BACKEND": "console",
        "LOG_LEVEL": "WARNING",
        **extra,
    }


def manage(env: dict[str, str], *args: str, capture: bool = False) -> str:
    done = subprocess.run(
        [PYTHON, str(ROOT / "manage.py"), *args],
        env=env,
        check=True,
        cwd=ROOT,
        stdout=subprocess.PIPE if capture else subprocess.DEVNULL,
        text=True,
    )
    return done.stdout or ""


def prepare(env: dict[str, str]) -> float:
    """Catalogs, schema, demo data and static files, then the snapshot; returns the export's seconds."""
    for command in (
        ["compile_catalogs"],
        ["migrate", "--noinput"],
        ["load_demo"],
        ["collectstatic", "--noinput"],
    ):
        manage(env, *command)
    started = time.monotonic()
    subprocess.run(
        [PYTHON, str(ROOT / "manage.py"), "export_site"], env=env, check=True, cwd=ROOT, stdout=sys.stderr
    )
    return time.monotonic() - started


def start_app(env: dict[str, str], *, port: int, workers: int = GUNICORN_WORKERS) -> subprocess.Popen:
    process = subprocess.Popen(
        [
            GUNICORN,
            WSGI_APPLICATION,
            "-w",
            str(workers),
            *GUNICORN_WORKER_OPTIONS,
            "-b",
            f"127.0.0.1:{port}",
            "--log-level",
            "warning",
        ],
        env=env,
        cwd=ROOT,
    )
    wait_for(port, process)
    return process


def proxy_config(*, listen: str, upstreams: list[str], cache: Path, snapshot: Path) -> str:
    """deploy/nginx/statuspage.conf with its lines marked "replaced by" rewritten: where it
    listens, the app servers of its upstream block (one line each), its cache and snapshot."""
    proxy = (ROOT / "deploy/nginx/statuspage.conf").read_text()
    proxy = re.sub(r"listen 80;.*", f"listen {listen};", proxy)
    servers = "\n    ".join(f"server {upstream};" for upstream in upstreams)
    proxy = re.sub(r"server 127.0.0.1:8000;.*", lambda _: servers, proxy)
    proxy = re.sub(r"proxy_cache_path /var/cache/nginx/statuspage ", f"proxy_cache_path {cache} ", proxy)
    return re.sub(r"root /srv/statuspage/snapshot/current;.*", f"root {snapshot};", proxy)


def start_nginx(
    scratch: Path, snapshot: Path, *, proxy_port: int, upstreams: list[str], static_port: int | None = None
) -> subprocess.Popen:
    """One nginx: the shipped proxy configuration in front of `upstreams` (host:port) on
    `proxy_port`, and the snapshot only on `static_port` when given."""
    deploy = ROOT / "deploy/nginx"
    servers = [f"{scratch}/statuspage.conf"]
    proxy = proxy_config(
        listen=f"127.0.0.1:{proxy_port}", upstreams=upstreams, cache=scratch / "cache", snapshot=snapshot
    )
    (scratch / "statuspage.conf").write_text(proxy)
    if static_port is not None:
        static = (deploy / "snapshot.conf").read_text()
        static = re.sub(r"listen 80;.*", f"listen 127.0.0.1:{static_port};", static)
        static = re.sub(r"root /srv/statuspage/snapshot/current;.*", f"root {snapshot};", static)
        (scratch / "snapshot.conf").write_text(static)
        servers.append(f"{scratch}/snapshot.conf")
    for folder in ("body", "proxy", "fastcgi", "uwsgi", "scgi", "cache"):
        (scratch / folder).mkdir()
    includes = "\n".join(f"    include {server};" for server in servers)
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
{includes}
}}
"""
    )
    os.chmod(scratch, 0o755)
    process = subprocess.Popen(["nginx", "-p", str(scratch), "-c", str(scratch / "nginx.conf")])
    wait_listening(proxy_port, process)
    return process


def wait_listening(port: int, process: subprocess.Popen) -> None:
    for _ in range(300):
        if process.poll() is not None:
            raise SystemExit(f"server on port {port} exited with {process.returncode}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=2).close()
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"nothing listens on port {port}")


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


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def wrk(url: str, *, connections: int, seconds: float, script: Path | None = None) -> dict:
    """wrk's requests a second, p50 and p99 in ms, and its errors by kind (non-2xx included)."""
    command = ["wrk", "-t2", f"-c{connections}", f"-d{seconds:g}s", "--latency"]
    if script is not None:
        command += ["-s", str(script)]
    output = subprocess.run([*command, url], capture_output=True, text=True, check=True).stdout
    return parse_wrk(output)


def parse_wrk(output: str) -> dict:
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    latency = {
        share: float(value) * UNITS[unit]
        for share, value, unit in re.findall(r"^\s+(50|99)%\s+([\d.]+)(us|ms|s)\s*$", output, re.MULTILINE)
    }
    kinds = {kind: int(n) for kind, n in re.findall(r"(connect|read|write|timeout) (\d+)", output)}
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    kinds["non-2xx"] = int(non_2xx.group(1)) if non_2xx else 0
    kinds = {kind: n for kind, n in kinds.items() if n}
    return {
        "rps": rps,
        "p50_ms": latency.get("50", 0.0),
        "p99_ms": latency.get("99", 0.0),
        "errors": sum(kinds.values()),
        "kinds": kinds,
    }
