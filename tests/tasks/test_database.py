"""The scheduler keeps the query planner's statistics current."""

import datetime as dt

import pytest
import time_machine
from django.db import connection

from incidents.lifecycle.commands import DeclareIncident
from incidents.lifecycle.opening import declare_incident
from incidents.models import ComponentStatus, Counter
from incidents.security.counters import count_hit, counter_key
from incidents.tasks.database import prune_expired_counters, refresh_planner_statistics

pytestmark = pytest.mark.django_db


def planner_rows(table: str) -> float | None:
    """How many rows the planner believes `table` holds (None: no statistics)."""
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("SELECT name FROM sqlite_master WHERE name = 'sqlite_stat1'")
            if not cursor.fetchall():
                return None
            cursor.execute("SELECT stat FROM sqlite_stat1 WHERE tbl = %s AND idx IS NOT NULL", [table])
            found = cursor.fetchone()
            return float(found[0].split()[0]) if found else None
        cursor.execute("SELECT reltuples FROM pg_class WHERE relname = %s", [table])
        (reltuples,) = cursor.fetchone()
        return reltuples if reltuples >= 0 else None


def test_refreshing_statistics_counts_the_incidents(responder, make_component):
    api = make_component("api")
    for title in ("Errors", "Timeouts", "Slow logins"):
        declare_incident(
            DeclareIncident(
                title=title,
                language="en",
                body="Looking.",
                component_statuses={api: ComponentStatus.PARTIAL_OUTAGE},
            ),
            actor=responder,
        )
    assert planner_rows("incidents_incident") != 3
    refresh_planner_statistics()
    assert planner_rows("incidents_incident") == 3


def test_pruning_deletes_counters_whose_window_ended_and_keeps_running_ones(settings):
    settings.REDIS_URL = ""
    with time_machine.travel(dt.datetime(2026, 6, 1, 9, 0, tzinfo=dt.UTC), tick=False):
        count_hit("login", "ended", window_seconds=60)
        count_hit("login", "running", window_seconds=3600)
    with time_machine.travel(dt.datetime(2026, 6, 1, 9, 5, tzinfo=dt.UTC), tick=False):
        pruned = prune_expired_counters()

        assert pruned == 1
        assert list(Counter.objects.values_list("key", flat=True)) == [counter_key("login", "running")]
        assert count_hit("login", "running", window_seconds=3600) == 2  # still counting, not reset


def test_the_scheduler_prunes_counters_at_the_configured_interval(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["prune-expired-counters"]

    assert entry["task"] == prune_expired_counters.name
    assert entry["schedule"] == settings.COUNTER_PRUNE_SECONDS
