"""The uptime page's month choice lists every month back to the first data; their names are
worked out once per language, so a long history does not cost a Babel call per month on every
render."""

import datetime as dt

import pytest
import time_machine

from incidents import formatting
from incidents.models import Component
from incidents.services.components import save_component, set_component_status

from .conftest import NOW

pytestmark = pytest.mark.django_db


def test_a_decade_of_months_is_named_once_per_language(client, admin, settings, monkeypatch):
    settings.PUBLIC_PAGE_CACHE_SECONDS = 0
    with time_machine.travel(dt.datetime(2016, 1, 5, tzinfo=dt.UTC)):
        api = save_component(Component(slug="api", name={"en": "API"}), actor=admin)
        set_component_status(api, status="degraded_performance", actor=admin)
    calls = []
    real = formatting.format_month
    monkeypatch.setattr(formatting, "format_month", lambda *a, **k: calls.append(a) or real(*a, **k))
    with time_machine.travel(NOW):
        first = client.get("/uptime/").content.decode()
        calls.clear()
        assert client.get("/uptime/").status_code == 200

    assert first.count("<option ") > 120  # ten years of months to choose from
    assert len(calls) < 12  # the three months shown, not each of the 120 to choose from
