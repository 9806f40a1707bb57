"""The overview's weight on a large page: 60 components with a year of history behind them."""

import gzip

import pytest

from incidents.management.commands.build_site_history import build_history

pytestmark = pytest.mark.django_db

BUDGET = 100_000  # bytes, compressed as the app sends them to a browser


def test_the_overview_stays_under_100_kb_compressed_with_60_components_and_a_year_of_history(client):
    build_history(groups=8, components=60, metrics=30, incidents=480, history_days=365, rollup_days=2)

    for path in ("/", "/ru/"):
        sent = client.get(path, headers={"accept-encoding": "gzip, deflate, br"}).content
        page = gzip.decompress(sent)
        assert page.count(b'<ol class="days"') == 60  # every component's 90 days are on the page
        size = len(sent)
        assert size < BUDGET, f"{path}: {size} bytes compressed ({len(page)} uncompressed)"
