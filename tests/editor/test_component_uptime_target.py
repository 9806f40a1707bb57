"""A component's uptime target, set in the editor and the admin, and audited."""

from decimal import Decimal

import pytest

from incidents.models import AuditEvent

from .conftest import logged_in

pytestmark = pytest.mark.django_db

FORM = {
    "slug": "public-api",
    "position": 0,
    "status_mode": "manual",
    "name_en": "Public API",
    "showcase": "on",
}


@pytest.fixture
def api(make_component):
    return make_component("public-api", name={"en": "Public API"})


def test_the_editor_sets_a_target_and_the_trail_says_so(admin, api):
    response = logged_in(admin).post(f"/editor/components/{api.pk}/", {**FORM, "uptime_target": "99.95"})

    assert response.status_code == 302
    api.refresh_from_db()
    assert api.uptime_target == Decimal("99.950")
    event = AuditEvent.objects.filter(action="component.changed").latest("id")
    assert event.after == {"uptime_target": "99.950"} and event.before == {"uptime_target": None}


@pytest.mark.parametrize("value", ["100.5", "-1", "99.9999", "lots"])
def test_the_editor_refuses_a_target_that_is_no_percentage(admin, api, value):
    response = logged_in(admin).post(f"/editor/components/{api.pk}/", {**FORM, "uptime_target": value})

    assert response.status_code == 200
    assert (
        'id="id_uptime_target_error"' in response.content.decode() or "errorlist" in response.content.decode()
    )
    api.refresh_from_db()
    assert api.uptime_target is None


def test_the_editor_clears_a_target(admin, api):
    api.uptime_target = Decimal("99.9")
    api.save()
    logged_in(admin).post(f"/editor/components/{api.pk}/", {**FORM, "uptime_target": ""})
    api.refresh_from_db()
    assert api.uptime_target is None


def test_the_admin_offers_the_target(admin_client, api):
    page = admin_client.get(f"/admin/incidents/component/{api.pk}/change/").content.decode()
    assert 'name="uptime_target"' in page
