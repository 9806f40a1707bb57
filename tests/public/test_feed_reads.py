"""The page feed finds its newest incidents by walking the newest updates, so what it reads does
not grow with the history behind them."""

import pytest
from django.db import connection
from django.db.models import Max
from django.test.utils import CaptureQueriesContext

from incidents import selectors
from incidents.lifecycle.commands import DeclareIncident
from incidents.lifecycle.opening import declare_incident
from incidents.management.commands.build_site_history import build_history
from incidents.models import Component, ComponentGroup, Incident, IncidentUpdate

pytestmark = pytest.mark.django_db

HISTORY = {"groups": 2, "components": 4, "metrics": 1, "rollup_days": 2}


def newest_by_grouping(limit: int) -> list[int]:
    """What the feed shows, worked out the slow way: every update grouped by incident."""
    newest = Incident.objects.published().annotate(last=Max("updates__display_at")).order_by("-last", "-id")
    updates = IncidentUpdate.objects.filter(incident__in=newest.values("pk")[:limit])
    return list(updates.order_by("-display_at", "-created_at", "-id").values_list("pk", flat=True))


def feed_sql(client) -> tuple[int, list[str]]:
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/history.atom").status_code == 200
    return len(queries), [query["sql"] for query in queries]


def test_the_page_feed_reads_no_more_on_a_tenfold_history(client, settings):
    settings.PUBLIC_PAGE_CACHE_SECONDS = 0
    build_history(incidents=60, history_days=60, **HISTORY)
    small_count, _ = feed_sql(client)
    for model in (Incident, Component, ComponentGroup):  # cascades to metrics, rollups, periods
        model.objects.all().delete()
    build_history(incidents=600, history_days=600, **HISTORY)
    large_count, statements = feed_sql(client)
    assert large_count == small_count
    # Grouping every update by its incident is what read the whole history.
    assert not [sql for sql in statements if "GROUP BY" in sql.upper() or "MAX(" in sql.upper()]


def test_the_page_feed_shows_the_newest_published_incidents_with_all_their_updates(admin):
    build_history(incidents=120, history_days=120, **HISTORY)
    fresh = declare_incident(
        DeclareIncident(title="Slow webhooks", language="en", body="Investigating."), actor=admin
    )
    draft = declare_incident(
        DeclareIncident(title="Not yet public", language="en", body="Draft.", publish=False), actor=admin
    )

    shown = [update.pk for update in selectors.feed_updates(limit=10)]

    assert shown == newest_by_grouping(10)
    assert shown[0] == fresh.updates.get().pk
    assert not IncidentUpdate.objects.filter(pk__in=shown, incident=draft).exists()
