"""The uptime page finds its first month without reading every status period there ever was."""

import datetime as dt
import zoneinfo

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from incidents import selectors
from incidents.management.commands.build_site_history import build_history
from incidents.models import StatusPeriod

pytestmark = pytest.mark.django_db

UTC = zoneinfo.ZoneInfo("UTC")


def test_the_first_month_is_that_of_the_earliest_period_of_any_component():
    build_history(groups=2, components=4, incidents=40, metrics=1, rollup_days=2, history_days=200)
    earliest = StatusPeriod.objects.order_by("started_at").first()
    later = StatusPeriod.objects.exclude(component=earliest.component).order_by("started_at").first()
    later.started_at = earliest.started_at + dt.timedelta(days=40)
    later.save(update_fields=["started_at"])

    assert selectors.first_status_month(UTC) == earliest.started_at.date().replace(day=1)


@pytest.mark.skipif(connection.vendor != "sqlite", reason="reads SQLite's query plan")
def test_finding_the_first_month_scans_no_status_periods():
    build_history(groups=2, components=4, incidents=40, metrics=1, rollup_days=2, history_days=200)
    with CaptureQueriesContext(connection) as queries:
        selectors.first_status_month(UTC)
    assert len(queries) == 1
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN QUERY PLAN {queries[0]['sql']}")
        plan = " / ".join(row[-1] for row in cursor.fetchall())
    assert "SCAN incidents_statusperiod" not in plan and "SCAN U0" not in plan, plan
