"""The overview's weight on a large page: 60 components with a year of history behind them."""

import gzip
import re

import pytest

from incidents.management.commands.build_site_history import build_history

pytestmark = pytest.mark.django_db

# Bytes as the app sends them to a browser (compressed) and as the browser parses them, per
# language: Russian dates and statuses take two bytes a letter. The room above what the page
# weighs today is for month names, which change length with the date the test runs on.
BUDGETS = {"/": (26_000, 470_000), "/ru/": (33_000, 700_000)}


def test_the_overview_with_60_components_and_a_year_of_history_stays_within_its_budget(client):
    build_history(groups=8, components=60, metrics=30, incidents=480, history_days=365, rollup_days=2)

    for path, (compressed, uncompressed) in BUDGETS.items():
        sent = client.get(path, headers={"accept-encoding": "gzip, deflate, br"}).content
        page = gzip.decompress(sent).decode()
        bars = re.findall(r'<ol class="days".*?</ol>', page, re.S)
        days = [
            re.findall(r"<li[^>]*><(?:a|span)[ >]", re.sub("<ul hidden>.*?</ul>", "", bar)) for bar in bars
        ]
        assert len(bars) == 60 and all(len(bar_days) == 90 for bar_days in days)
        assert len(sent) < compressed, f"{path}: {len(sent)} bytes compressed"
        assert len(page.encode()) < uncompressed, f"{path}: {len(page.encode())} bytes uncompressed"
