"""Every field that takes an instant refuses times outside the platform's bounds (docs/input-bounds.md):
through the API, the editor, the admin and the push endpoint, with a 4xx or a form error naming
the field, no 500, nothing written, and the public pages still up in every language."""

import datetime as dt
import json
from html.parser import HTMLParser

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.utils import timezone

from incidents.lifecycle.commands import WritePostmortem
from incidents.lifecycle.postmortems import save_action_item, write_postmortem
from incidents.models import ActionItem, Component, Incident, IncidentUpdate, Sample
from incidents.services.probes import issue_push_token
from incidents.validation.instants import check_fields
from tests.conftest import database_rows

from .conftest import assert_form_refused, assert_public_pages_render, refused_without_trace


def _in(**delta) -> dt.datetime:
    return timezone.now() + dt.timedelta(**delta)


def _iso(value: dt.datetime) -> str:
    return value.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


# Times no calendar or no bound allows, as an attacker would send them.
OUT_OF_RANGE = {
    "year 0000": lambda: "0000-01-01T00:00:00Z",
    "year 0001": lambda: "0001-01-01T00:00:00Z",
    "before 1970": lambda: "1969-12-31T23:59:59Z",
    "9999-12-31": lambda: "9999-12-31T23:59:59Z",
    "year 10000": lambda: "10000-01-01T00:00:00Z",
    "garbage": lambda: "next tuesday-ish",
}
HAPPENED = {**OUT_OF_RANGE, "tomorrow": lambda: _iso(_in(days=1))}
PLANNED = {**OUT_OF_RANGE, "in 11 years": lambda: _iso(_in(days=366 * 11))}
HAPPENED_DAYS = {
    "year 0000": lambda: "0000-01-01",
    "year 0001": lambda: "0001-01-01",
    "before 1970": lambda: "1969-12-31",
    "9999-12-31": lambda: "9999-12-31",
    "year 10000": lambda: "10000-01-01",
    "garbage": lambda: "someday",
    "next week": lambda: (_in(days=7)).date().isoformat(),
}
PLANNED_DAYS = {**HAPPENED_DAYS, "in 11 years": lambda: (_in(days=366 * 11)).date().isoformat()}
PLANNED_DAYS.pop("next week")
# The editor's datetime-local inputs: local times, without a zone.
EDITOR_TIMES = {
    "year 0001": lambda: "0001-01-01T00:10",
    "before 1970": lambda: "1969-12-31T12:00",
    "9999-12-31": lambda: "9999-12-31T23:59",
    "year 10000": lambda: "10000-01-01T00:00",
    "garbage": lambda: "soon",
}


def cases(values: dict) -> list:
    return [pytest.param(make, id=name) for name, make in values.items()]


def _form_refused_without_trace(response, field: str, rows_before: dict, *, input_name: str = "") -> None:
    """The form again, with the error attached to `field` itself (not to another field or the form)."""
    assert_form_refused(response, input_name or field)
    assert f'id="id_{field}_error"' in response.content.decode(), "the error is not next to the field"
    assert database_rows() == rows_before


# --- the API ---


@pytest.fixture
def responder_api(client_as):
    return client_as("responder")


@pytest.mark.parametrize("value", cases(HAPPENED))
def test_the_api_refuses_an_incident_started_out_of_range(page, responder_api, value):
    before = database_rows()
    response = responder_api.post(
        "/api/v1/incidents/",
        {"title": "Time travel", "language": "en", "body": "Started long ago.", "started_at": value()},
        format="json",
    )
    refused_without_trace(response, "started_at", before)


@pytest.mark.parametrize("field", ["scheduled_for", "scheduled_until"])
@pytest.mark.parametrize("value", cases(PLANNED))
def test_the_api_refuses_a_maintenance_window_out_of_range(page, responder_api, field, value):
    window = {"scheduled_for": _iso(_in(days=1)), "scheduled_until": _iso(_in(days=1, hours=1))}
    window[field] = value()
    before = database_rows()
    response = responder_api.post(
        "/api/v1/incidents/",
        {"kind": "maintenance", "title": "Upgrade", "language": "en", "body": "Planned.", **window},
        format="json",
    )
    refused_without_trace(response, field, before)


@pytest.mark.parametrize("value", cases(HAPPENED))
def test_the_api_refuses_an_update_shown_out_of_range(page, responder_api, value):
    before = database_rows()
    response = responder_api.post(
        f"/api/v1/incidents/{page['incident'].public_id}/updates/",
        {"status": "monitoring", "language": "en", "body": "Watching.", "display_at": value()},
        format="json",
    )
    refused_without_trace(response, "display_at", before)


@pytest.mark.parametrize("value", cases({k: HAPPENED[k] for k in ("year 0001", "9999-12-31", "tomorrow")}))
def test_the_api_refuses_a_resolution_shown_out_of_range(page, responder_api, value):
    before = database_rows()
    response = responder_api.post(
        f"/api/v1/incidents/{page['incident'].public_id}/resolve/",
        {"language": "en", "body": "Fixed.", "display_at": value()},
        format="json",
    )
    refused_without_trace(response, "display_at", before)


@pytest.mark.parametrize("value", cases(HAPPENED_DAYS))
def test_the_api_refuses_a_component_start_date_out_of_range(page, client_as, value):
    before = database_rows()
    response = client_as("admin").patch(
        f"/api/v1/components/{page['rest'].public_id}/", {"start_date": value()}, format="json"
    )
    refused_without_trace(response, "start_date", before)
    assert Component.objects.get(pk=page["rest"].pk).start_date == dt.date(2024, 1, 10)


@pytest.mark.parametrize("value", cases(PLANNED_DAYS))
def test_the_api_refuses_an_action_item_due_out_of_range(page, responder_api, admin, value):
    postmortem = write_postmortem(
        page["resolved"], WritePostmortem(language="en", sections={"summary": "Slow."}), actor=admin
    )
    before = database_rows()
    response = responder_api.post(
        "/api/v1/action-items/",
        {"postmortem": postmortem.pk, "title": {"en": "Add alerts"}, "due_date": value()},
        format="json",
    )
    refused_without_trace(response, "due_date", before)


# --- the push endpoint ---


@pytest.mark.parametrize("value", cases({**HAPPENED, "two days ago": lambda: _iso(_in(days=-2))}))
def test_the_push_endpoint_refuses_a_sample_measured_out_of_range(probes, admin, value):
    token = issue_push_token(probes["push"], actor=admin)
    before = database_rows()
    response = Client().post(
        f"/probes/push/{probes['push'].public_id}/",
        json.dumps({"samples": [{"value": 1.5}, {"value": 2.5, "at": value()}]}),
        content_type="application/json",
        headers={"Authorization": f"Bearer {token}"},
    )
    assert response.json().get("field") == "at", response.json()
    refused_without_trace(response, "at", before)


# --- the editor ---


@pytest.mark.parametrize("field", ["scheduled_for", "scheduled_until"])
@pytest.mark.parametrize(
    "value", cases({**EDITOR_TIMES, "in 11 years": lambda: f"{_in(days=366 * 11):%Y-%m-%dT%H:%M}"})
)
def test_the_editor_refuses_a_maintenance_window_out_of_range(page, editor, field, value):
    window = {
        "scheduled_for": f"{_in(days=1):%Y-%m-%dT%H:%M}",
        "scheduled_until": f"{_in(days=2):%Y-%m-%dT%H:%M}",
    }
    window[field] = value()
    before = database_rows()
    response = editor.post(
        "/editor/maintenance/new/",
        {"title": "DB upgrade", "language": "en", "body": "Planned.", "affected": ["rest-api"], **window},
    )
    _form_refused_without_trace(response, field, before)


@pytest.mark.parametrize(
    "value", cases({**EDITOR_TIMES, "tomorrow": lambda: f"{_in(days=1):%Y-%m-%dT%H:%M}"})
)
def test_the_editor_refuses_an_update_shown_out_of_range(page, editor, value):
    before = database_rows()
    response = editor.post(
        f"/editor/incidents/{page['incident'].pk}/updates/",
        {"status": "monitoring", "language": "en", "body": "Watching.", "display_at": value()},
    )
    _form_refused_without_trace(response, "display_at", before)


@pytest.mark.parametrize(
    "value",
    cases({"year 0001": lambda: "0001-01-01", "before 1970": lambda: "1969", "in 11 years": lambda: "2040"}),
)
def test_the_editor_refuses_an_action_item_due_out_of_range(page, editor, admin, value):
    write_postmortem(
        page["resolved"], WritePostmortem(language="en", sections={"summary": "Slow."}), actor=admin
    )
    before = database_rows()
    response = editor.post(
        f"/editor/incidents/{page['resolved'].pk}/action-items/",
        {"new-title": "Add alerts", "new-due": value(), "new-due_precision": "day", "new-state": "open"},
    )
    _form_refused_without_trace(response, "new-due", before)


@pytest.mark.parametrize("path", ["/api/v1/samples/", "/api/v1/audit-events/", "/api/v1/incidents/"])
@pytest.mark.parametrize(
    "value",
    [
        "0033-07-16T12:28:44.98-16:18",
        "0001-01-01T00:00:00+23:59",
        "9999-12-31T23:59:59-16:00",
        "1969-12-31T23:00Z",
    ],
)
def test_an_api_list_filter_refuses_a_time_out_of_range_naming_it(page, responder_api, path, value):
    parameter = "started_before" if path == "/api/v1/incidents/" else "before"
    response = responder_api.get(path, {parameter: value})
    assert response.status_code == 400
    assert parameter in response.json()


def test_the_editor_audit_filter_refuses_a_time_out_of_range_without_failing(page, editor):
    response = editor.get("/editor/audit/", {"since": "0001-01-01T00:10", "until": "9999-12-31T23:59"})
    assert_form_refused(response, "since")
    assert 'id="id_since_error"' in response.content.decode()


# --- the Django admin ---


class _FormValues(HTMLParser):
    """The values a browser would submit from the admin's change form."""

    def __init__(self):
        super().__init__()
        self.values: dict[str, list[str]] = {}
        self._textarea: str | None = None
        self._select: str | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        name = attrs.get("name")
        if tag == "input" and name and attrs.get("type") not in ("submit", "button", "file"):
            if attrs.get("type") in ("checkbox", "radio") and "checked" not in attrs:
                return
            self.values.setdefault(name, []).append(attrs.get("value") or "")
        elif tag == "textarea" and name:
            self._textarea = name
            self.values[name] = [""]
        elif tag == "select" and name:
            self._select = name
        elif tag == "option" and self._select and "selected" in attrs:
            self.values.setdefault(self._select, []).append(attrs.get("value") or "")

    def handle_data(self, data):
        if self._textarea:
            self.values[self._textarea][0] += data

    def handle_endtag(self, tag):
        if tag == "textarea":
            self._textarea = None
        elif tag == "select":
            self._select = None


def admin_form(client: Client, url: str) -> dict[str, list[str]]:
    response = client.get(url)
    assert response.status_code == 200, response.status_code
    parser = _FormValues()
    parser.feed(response.content.decode())
    parser.values.pop("csrfmiddlewaretoken", None)
    return parser.values


ADMIN_TIMES = {
    "year 0001": ("0001-01-01", "00:10:00"),
    "before 1970": ("1969-12-31", "23:59:59"),
    "9999-12-31": ("9999-12-31", "23:59:59"),
    "year 10000": ("10000-01-01", "00:00:00"),
    "tomorrow": (None, None),
}


@pytest.mark.parametrize("when", list(ADMIN_TIMES), ids=list(ADMIN_TIMES))
def test_the_admin_refuses_an_update_shown_out_of_range(page, admin_client, when):
    # The admin only shows the lifecycle: any change to an update is refused there.
    update = page["incident"].updates.order_by("pk").first()
    url = f"/admin/incidents/incidentupdate/{update.pk}/change/"
    data = admin_form(admin_client, url)
    day, time = ADMIN_TIMES[when]
    if day is None:
        day, time = f"{_in(days=1):%Y-%m-%d}", "12:00:00"
    data["display_at_0"], data["display_at_1"] = [day], [time]
    before = database_rows()
    response = admin_client.post(url, data)
    assert response.status_code == 403
    assert database_rows() == before
    assert IncidentUpdate.objects.get(pk=update.pk).display_at == update.display_at


@pytest.mark.parametrize("value", ["0001-01-01", "1969-12-31", "9999-12-31", "tomorrow"])
def test_the_admin_refuses_a_component_start_date_out_of_range(page, admin_client, value):
    url = f"/admin/incidents/component/{page['rest'].pk}/change/"
    data = admin_form(admin_client, url)
    data["start_date"] = [f"{_in(days=2):%Y-%m-%d}" if value == "tomorrow" else value]
    before = database_rows()
    response = admin_client.post(url, data)
    _form_refused_without_trace(response, "start_date", before)
    assert Component.objects.get(pk=page["rest"].pk).start_date == dt.date(2024, 1, 10)


# --- the edges are accepted ---


def test_times_at_the_edges_are_accepted_everywhere(page, probes, client_as, editor, admin_client, admin):
    api = client_as("responder")
    epoch, soon = "1970-01-01T00:00:00Z", _iso(_in(minutes=4))
    declared = api.post(
        "/api/v1/incidents/",
        {"title": "Old outage", "language": "en", "body": "Written up late.", "started_at": epoch},
        format="json",
    )
    assert declared.status_code == 201, declared.json()
    assert declared.json()["started_at"].startswith("1970-01-01T00:00:00")
    updated = api.post(
        f"/api/v1/incidents/{page['incident'].public_id}/updates/",
        {"status": "monitoring", "language": "en", "body": "Clocks differ.", "display_at": soon},
        format="json",
    )
    assert updated.status_code == 201, updated.json()
    planned = api.post(
        "/api/v1/incidents/",
        {
            "kind": "maintenance",
            "title": "Far ahead",
            "language": "en",
            "body": "Planned.",
            "scheduled_for": _iso(_in(days=365 * 9)),
            "scheduled_until": _iso(_in(days=365 * 9, hours=1)),
        },
        format="json",
    )
    assert planned.status_code == 201, planned.json()
    counted = client_as("admin").patch(
        f"/api/v1/components/{page['rest'].public_id}/", {"start_date": "1970-01-01"}, format="json"
    )
    assert counted.status_code == 200, counted.json()
    token = issue_push_token(probes["push"], actor=admin)
    pushed = Client().post(
        f"/probes/push/{probes['push'].public_id}/",
        json.dumps({"value": 3.5, "at": soon}),
        content_type="application/json",
        headers={"Authorization": f"Bearer {token}"},
    )
    assert pushed.status_code == 202, pushed.json()
    assert Sample.objects.filter(metric=probes["push"].metric, value=3.5).exists()
    shown = editor.post(
        f"/editor/incidents/{page['incident'].pk}/updates/",
        {"status": "identified", "language": "en", "body": "Back then.", "display_at": "1970-01-01T01:00"},
    )
    assert shown.status_code == 302
    postmortem = write_postmortem(
        page["resolved"], WritePostmortem(language="en", sections={"summary": "Slow."}), actor=admin
    )
    item = save_action_item(
        ActionItem(postmortem=postmortem, title={"en": "Tidy"}, due_date=dt.date(1970, 1, 1)), actor=admin
    )
    assert item.due_date == dt.date(1970, 1, 1)
    assert_public_pages_render(extra_paths=(f"/incidents/{page['incident'].slug}/",))


@pytest.mark.parametrize(("kind", "refused"), [("maintenance", False), ("incident", True)])
def test_a_start_a_month_ahead_is_a_plan_only_for_maintenance(kind, refused):
    month_ahead = dt.datetime.now(dt.UTC) + dt.timedelta(days=30)
    if refused:
        with pytest.raises(ValidationError, match="started_at"):
            check_fields(Incident(kind=kind), {"started_at": month_ahead})
    else:
        check_fields(Incident(kind=kind), {"started_at": month_ahead})
