"""The scheduler keeps the query planner's statistics current."""

import pytest
from django.db import connection

from incidents.models import ComponentStatus
from incidents.services.incidents import declare_incident
from incidents.tasks.database import refresh_planner_statistics

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
            title=title,
            language="en",
            body="Looking.",
            component_statuses={api: ComponentStatus.PARTIAL_OUTAGE},
            actor=responder,
        )
    assert planner_rows("incidents_incident") != 3
    refresh_planner_statistics()
    assert planner_rows("incidents_incident") == 3
