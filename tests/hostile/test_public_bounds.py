"""Anonymous requests at the edges of what the public site reads: dates at the ends of the
calendar, a signature header outside ASCII. Each answers a page or a 4xx naming what is wrong,
never a 500."""

import json

import pytest
from django.test import Client

from incidents.probes.webhook import SIGNATURE_HEADER
from incidents.services.probes import rotate_webhook_secret
from tests.conftest import database_rows
from tests.public.conftest import _site_rows, site  # noqa: F401

pytestmark = pytest.mark.django_db


def anonymous() -> Client:
    return Client(raise_request_exception=False)


@pytest.mark.parametrize(
    ("query", "field"),
    [("to=9999-12-31", "to"), ("from=0001-01-01", "from"), ("from=9999-12-31&to=9999-12-31", "from")],
)
def test_a_history_bound_at_the_end_of_the_calendar_is_ignored_with_a_note(site, query, field):  # noqa: F811
    response = anonymous().get(f"/history/?{query}")
    assert response.status_code == 200
    page = response.content.decode()
    assert f'id="filter-{field}-error"' in page
    assert "The date is ignored." in page
    assert "Webhooks delayed" in page  # the history, unfiltered by the refused date


def test_a_history_range_from_1970_lists_every_incident_in_every_zone(site, settings):  # noqa: F811
    settings.STATUS_TIME_ZONE = "Pacific/Kiritimati"  # UTC+14: 1970's first midnight is in 1969 UTC
    response = anonymous().get("/history/?from=1970-01-01")
    assert response.status_code == 200
    assert "Webhooks delayed" in response.content.decode()


@pytest.mark.parametrize("signature", ["sha256=é", "sha256=\u00ff" * 32, "ü"])
def test_a_webhook_signature_outside_ascii_is_refused_as_a_bad_signature(probes, admin, signature):
    secret = rotate_webhook_secret(probes["webhook"], actor=admin)
    assert secret
    before = database_rows()
    response = anonymous().post(
        f"/probes/webhook/{probes['webhook'].public_id}/",
        json.dumps({"nonce": "x"}).encode(),
        content_type="application/json",
        headers={SIGNATURE_HEADER: signature},
    )
    assert response.status_code == 401, response.content[:300]
    assert response.json()["error"] == "bad signature"
    assert database_rows() == before
