"""Imports a generated Statuspage export of 2,000 incidents with 10,000 updates through
`manage.py import_statuspage`, into a fresh PostgreSQL database on DATABASE_URL's server
(`statuspage_bench_import`), then runs the import again, which must create nothing.

Last line: `import: incidents=<n> updates=<u> seconds=<s> second_run_created=<c>`, seconds being
the first run's wall clock (the command's process, migrations excluded).
"""

import datetime as dt
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/statuspage"
DATABASE_NAME = "statuspage_bench_import"
INCIDENTS = 2_000
UPDATES_PER_INCIDENT = 5
COMPONENTS = ["REST API", "Webhook delivery", "Dashboard", "Email", "Search", "Billing", "SSO", "CDN"]
STEPS = [
    ("investigating", "We are investigating reports of errors.", "partial_outage"),
    ("identified", "The cause is identified; a fix is being prepared.", None),
    ("identified", "The fix is rolling out region by region.", None),
    ("monitoring", "The fix is out; we are watching error rates.", None),
    ("resolved", "This incident has been resolved.", "operational"),
]


def stamp(value: dt.datetime) -> str:
    return value.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def generated_export() -> dict:
    """Deterministic: incident n starts n days after 2020-01-01 and lasts n % 7 + 1 hours."""
    base = dt.datetime(2020, 1, 1, 9, 0, tzinfo=dt.UTC)
    incidents = []
    for n in range(INCIDENTS):
        code = f"bi{n:010d}"
        started = base + dt.timedelta(days=n, minutes=n % 60)
        step = dt.timedelta(hours=n % 7 + 1) / (UPDATES_PER_INCIDENT - 1)
        component = COMPONENTS[n % len(COMPONENTS)]
        updates = []
        for k, (status, body, new_status) in enumerate(STEPS[:UPDATES_PER_INCIDENT]):
            at = started + step * k
            affected = None
            if new_status:
                old_status = "operational" if new_status != "operational" else "partial_outage"
                affected = [
                    {
                        "code": f"c{n % 8}",
                        "name": component,
                        "old_status": old_status,
                        "new_status": new_status,
                    }
                ]
            updates.append(
                {
                    "id": f"bu{n:07d}{k:03d}",
                    "status": status,
                    "body": f"{body} (#{n})",
                    "incident_id": code,
                    "created_at": stamp(at),
                    "updated_at": stamp(at),
                    "display_at": stamp(at),
                    "affected_components": affected,
                    "deliver_notifications": True,
                }
            )
        resolved = started + step * (UPDATES_PER_INCIDENT - 1)
        incidents.append(
            {
                "id": code,
                "name": f"Elevated errors on {component} ({n})",
                "status": "resolved",
                "impact": ("minor", "major", "critical")[n % 3],
                "created_at": stamp(started),
                "updated_at": stamp(resolved),
                "started_at": stamp(started),
                "monitoring_at": stamp(started + step * 3),
                "resolved_at": stamp(resolved),
                "backfilled": True,
                "incident_updates": list(reversed(updates)),
                "components": [{"id": f"c{n % 8}", "name": component, "status": "operational"}],
            }
        )
    return {"page": {"id": "benchimport1", "name": "Bench", "time_zone": "Etc/UTC"}, "incidents": incidents}


def fresh_database_url() -> str:
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        url = DEFAULT_URL
    parts = urlsplit(url)
    import psycopg  # only needed here

    with psycopg.connect(urlunsplit(parts._replace(path="/postgres")), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DATABASE_NAME}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{DATABASE_NAME}"')
    return urlunsplit(parts._replace(path=f"/{DATABASE_NAME}"))


def manage(env: dict, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, check=False
    )
    if done.returncode:
        sys.exit(f"manage.py {' '.join(args)} failed:\n{done.stdout}{done.stderr}")
    return done.stdout


def created_total(output: str) -> int:
    counts = re.search(r"created incidents=(\d+) updates=(\d+) components=(\d+)", output)
    if not counts:
        sys.exit(f"unexpected output: {output}")
    return sum(int(value) for value in counts.groups())


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        export = Path(tmp) / "incidents.json"
        export.write_text(json.dumps(generated_export()))
        env = {**os.environ, "DATABASE_URL": fresh_database_url(), "STATUSPAGE_VAR_DIR": tmp}
        manage(env, "migrate", "--noinput")
        began = time.perf_counter()
        first = manage(env, "import_statuspage", str(export))
        seconds = time.perf_counter() - began
        second = manage(env, "import_statuspage", str(export))
    print(f"first run: {first.strip()}")
    print(f"second run: {second.strip()}")
    incidents, updates = (int(v) for v in re.search(r"incidents=(\d+) updates=(\d+)", first).groups())
    print(
        f"import: incidents={incidents} updates={updates} seconds={seconds:.1f} "
        f"second_run_created={created_total(second)}"
    )


if __name__ == "__main__":
    main()
