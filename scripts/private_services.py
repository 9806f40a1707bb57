"""PostgreSQL and Redis of a drill's own: started in a scratch folder on private ports, so a drill
can stop and restart them without touching the machine's servers. The caller stops them."""

import glob
import os
import shutil
import subprocess
import time
from pathlib import Path


def postgres_program(name: str) -> str | None:
    """A PostgreSQL program on PATH, or in a Debian server package's folder (not on PATH there)."""
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return candidates[-1] if candidates else None


def unavailable() -> str | None:
    """Why the servers cannot be started here (their programs are not installed), or None."""
    if shutil.which("redis-server") is None:
        return "no redis-server"
    if postgres_program("initdb") is None:
        return "no PostgreSQL server programs (initdb)"
    return None


def as_postgres(command: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: as root, run it as the `postgres` user."""
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


def pg_ctl(folder: Path, port: int, action: str, *, listen: tuple[str, ...] = ("127.0.0.1",)) -> None:
    """pg_ctl start|stop|restart for the cluster in folder/pg, listening on port of `listen`."""
    options = f"-p {port} -h {','.join(listen)} -k {folder} -c fsync=off"
    command = [postgres_program("pg_ctl") or "pg_ctl", "-D", str(folder / "pg"), "-l", str(folder / "pg.log")]
    subprocess.run(
        as_postgres([*command, "-w", "-o", options, action]), check=True, stdout=subprocess.DEVNULL
    )


def start_postgres(
    folder: Path, port: int, database: str, *, listen: tuple[str, ...] = ("127.0.0.1",), clients: str = ""
) -> None:
    """A new cluster in folder/pg (trust authentication, fsync off) with one empty database,
    listening on `listen`; `clients` (a network such as 10.251.0.0/16) may connect too."""
    (folder / "pg").mkdir()
    if os.geteuid() == 0:
        shutil.chown(folder / "pg", "postgres")
        shutil.chown(folder, "postgres")
    initdb = postgres_program("initdb") or "initdb"
    subprocess.run(
        as_postgres([initdb, "-D", str(folder / "pg"), "-U", "postgres", "--auth=trust", "-E", "UTF8"]),
        check=True,
        stdout=subprocess.DEVNULL,
    )
    if clients:
        with open(folder / "pg" / "pg_hba.conf", "a") as hba:
            hba.write(f"host all all {clients} trust\n")
    pg_ctl(folder, port, "start", listen=listen)
    psql = postgres_program("psql") or "psql"
    subprocess.run(
        [
            psql,
            "-h",
            "127.0.0.1",
            "-p",
            str(port),
            "-U",
            "postgres",
            "-q",
            "-c",
            f"CREATE DATABASE {database}",
        ],
        check=True,
    )


def start_redis(port: int, *, bind: tuple[str, ...] = ("127.0.0.1",)) -> subprocess.Popen:
    """redis-server without persistence on the given addresses; returns once it answers PING."""
    command = ["redis-server", "--bind", *bind, "--port", str(port), "--save", "", "--appendonly", "no"]
    # Clients from other addresses than loopback (a region's network namespace) are expected.
    process = subprocess.Popen([*command, "--protected-mode", "no"], stdout=subprocess.DEVNULL)
    for _ in range(100):
        if subprocess.run(["redis-cli", "-p", str(port), "ping"], capture_output=True).returncode == 0:
            return process
        time.sleep(0.05)
    process.kill()
    raise SystemExit("redis did not start")
