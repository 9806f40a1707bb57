"""Every page runs a fixed number of queries, whatever the size of the history."""

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from incidents.management.commands.build_site_history import build_history
from incidents.models import Component, ComponentGroup, Incident

pytestmark = pytest.mark.django_db

MAX_QUERIES = 20
PAGES = [
    "/",
    "/ru/",
    "/incidents/bench-incident-0/",
    "/components/bench-component-0/",
    "/history/",
    "/history/?component=bench-component-1&page=2",
    "/uptime/",
    "/maintenance/",
    "/history.atom",
    "/ru/history.rss",
    "/components/bench-component-0/history.atom",
    "/api/v2/summary.json",
    "/api/v2/incidents.json",
    "/api/v2/scheduled-maintenances.json",
]
SMALL = {"groups": 2, "components": 3, "incidents": 12, "metrics": 2, "rollup_days": 3, "history_days": 20}
LARGE = {
    "groups": 6,
    "components": 24,
    "incidents": 600,
    "metrics": 10,
    "rollup_days": 90,
    "history_days": 400,
}


def query_counts(client, django_assert_max_num_queries) -> dict[str, int]:
    cache.clear()  # the v2 documents are kept whatever the page cache setting: build them anew
    counts = {}
    for path in PAGES:
        with django_assert_max_num_queries(MAX_QUERIES), CaptureQueriesContext(connection) as queries:
            assert client.get(path).status_code == 200, path
        counts[path] = len(queries)
    return counts


def test_query_counts_do_not_grow_with_the_history(client, django_assert_max_num_queries):
    """Every page within MAX_QUERIES on a small history and on a large one, and the same count on both."""
    build_history(**SMALL)
    small = query_counts(client, django_assert_max_num_queries)
    for model in (Incident, Component, ComponentGroup):  # cascades to metrics, rollups, periods
        model.objects.all().delete()
    build_history(**LARGE)
    large = query_counts(client, django_assert_max_num_queries)
    assert large == small
