"""Benchmark of the public Statuspage-compatible JSON: cold build, cached read, 304.

Runs in-process (Django test client) on a throwaway SQLite database under
$STATUSPAGE_VAR_DIR (default /tmp/statuspage-bench-api), seeded through the services with a
page of realistic size. Prints median and p95 latencies per endpoint. Usage:

    make bench-api            # or: .venv/bin/python scripts/bench_api.py --rounds 200
"""

import argparse
import datetime as dt
import os
import shutil
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
VAR = Path(os.environ.setdefault("STATUSPAGE_VAR_DIR", "/tmp/statuspage-bench-api"))
os.environ.pop("DATABASE_URL", None)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "statuspage.settings")
os.environ.setdefault("ALLOWED_HOSTS", "testserver")


def seed(groups: int, per_group: int, incidents: int) -> None:
    from django.contrib.auth import get_user_model

    from incidents.lifecycle.commands import DeclareIncident, PostUpdate, ResolveIncident
    from incidents.lifecycle.opening import declare_incident
    from incidents.lifecycle.updates import post_update, resolve_incident
    from incidents.models import Component, ComponentGroup, Metric
    from incidents.services.metrics import record_sample

    actor = get_user_model().objects.create_user("bench")
    components = []
    for g in range(groups):
        group = ComponentGroup.objects.create(slug=f"group-{g}", name={"en": f"Group {g}"}, position=g)
        for c in range(per_group):
            component = Component.objects.create(
                slug=f"c-{g}-{c}", group=group, name={"en": f"Component {g}.{c}"}, position=c
            )
            metric = Metric.objects.create(component=component, slug="latency", name={"en": "Latency"})
            for value in range(5):
                record_sample(metric, value=100 + value)
            components.append(component)
    now = dt.datetime.now(dt.UTC)
    for n in range(incidents):
        incident = declare_incident(
            DeclareIncident(
                title=f"Incident {n}",
                language="en",
                body="Investigating.",
                component_statuses={components[n % len(components)]: "degraded_performance"},
                started_at=now - dt.timedelta(hours=n + 1),
            ),
            actor=actor,
        )
        post_update(
            incident, PostUpdate(status="identified", body={"en": "Found it."}, language="en"), actor=actor
        )
        if n >= 3:
            resolve_incident(incident, ResolveIncident(body={"en": "Fixed."}, language="en"), actor=actor)


def measure(client, path: str, rounds: int, **headers) -> list[float]:
    timings = []
    for _ in range(rounds):
        start = time.perf_counter()
        response = client.get(path, **headers)
        timings.append((time.perf_counter() - start) * 1000)
        assert response.status_code in (200, 304), response.status_code
    return timings


def report(label: str, timings: list[float]) -> None:
    ordered = sorted(timings)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    print(f"{label:<48} median {statistics.median(ordered):7.2f} ms   p95 {p95:7.2f} ms   n={len(ordered)}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--groups", type=int, default=5)
    parser.add_argument("--per-group", type=int, default=6)
    parser.add_argument("--incidents", type=int, default=50)
    args = parser.parse_args()
    shutil.rmtree(VAR, ignore_errors=True)
    VAR.mkdir(parents=True)

    import django

    django.setup()
    from django.core.cache import cache, caches
    from django.core.management import call_command
    from django.test import Client

    call_command("migrate", verbosity=0)
    seed(args.groups, args.per_group, args.incidents)
    client = Client()
    print(
        f"page: {args.groups * args.per_group} components in {args.groups} groups, "
        f"{args.incidents} incidents; cache: {type(caches['default']).__name__}"
    )
    for endpoint in ("summary", "components", "incidents"):
        path = f"/api/v2/{endpoint}.json"
        cold = []
        for _ in range(max(5, args.rounds // 10)):
            cache.clear()
            cold.extend(measure(client, path, 1))
        report(f"{path} cold (built)", cold)
        report(f"{path} cached", measure(client, path, args.rounds))
        etag = client.get(path)["ETag"]
        report(f"{path} If-None-Match -> 304", measure(client, path, args.rounds, HTTP_IF_NONE_MATCH=etag))


if __name__ == "__main__":
    main()
