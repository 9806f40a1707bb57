"""Declaring, updating, resolving, reopening and publishing from the editor."""

import datetime as dt
import html
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.conf import settings
from django.utils import timezone

from incidents.lifecycle.commands import PostUpdate
from incidents.lifecycle.proposals import default_update_text
from incidents.lifecycle.updates import post_update
from incidents.models import AuditEvent, Incident, IncidentUpdate, UpdateTemplate
from tests.measuring import measure

from .conftest import logged_in

ONE_MEGABYTE = "x" * (1024 * 1024)


@pytest.fixture
def client(responder):
    return logged_in(responder)


@pytest.mark.django_db
def test_declaring_in_one_form_sets_component_statuses(client, api, webhooks):
    response = client.post(
        "/editor/incidents/new/",
        {
            "title": "Checkout is slow",
            "impact": "major",
            "language": "en",
            "body": "We are **investigating**.",
            "affected": ["public-api", "webhook-delivery"],
            "status_public-api": "major_outage",
            "status_webhook-delivery": "degraded_performance",
            "publish": "on",
        },
    )
    incident = Incident.objects.get()
    assert response["Location"] == f"/editor/incidents/{incident.pk}/"
    api.refresh_from_db()
    webhooks.refresh_from_db()
    assert (api.status, webhooks.status) == ("major_outage", "degraded_performance")
    assert incident.title == {"en": "Checkout is slow"}
    assert incident.impact == "major" and not incident.is_draft
    page = client.get(response["Location"])
    assert b"Checkout is slow" in page.content
    assert b"<strong>investigating</strong>" in page.content


@pytest.mark.django_db
def test_a_draft_changes_no_component_until_published(client, api):
    client.post(
        "/editor/incidents/new/",
        {
            "title": "Maybe broken",
            "impact": "minor",
            "language": "en",
            "body": "Checking.",
            "affected": ["public-api"],
        },
    )
    incident = Incident.objects.get()
    api.refresh_from_db()
    assert incident.is_draft and api.status == "operational"
    assert b"Draft" in client.get(f"/editor/incidents/{incident.pk}/").content
    client.post(f"/editor/incidents/{incident.pk}/publish/")
    incident.refresh_from_db()
    assert not incident.is_draft


@pytest.mark.django_db
def test_posting_an_update_changes_status_and_components(client, incident, api):
    response = client.post(
        f"/editor/incidents/{incident.pk}/updates/",
        {
            "status": "monitoring",
            "language": "en",
            "body": "A fix is out.",
            "affected": ["public-api"],
            "status_public-api": "degraded_performance",
        },
    )
    assert response.status_code == 302
    incident.refresh_from_db()
    api.refresh_from_db()
    assert incident.status == "monitoring"
    assert api.status == "degraded_performance"
    page = client.get(f"/editor/incidents/{incident.pk}/").content.decode()
    assert "A fix is out." in page
    assert "Partial outage → Degraded performance" in page


@pytest.mark.django_db
def test_a_backdated_update_is_shown_as_such(client, incident):
    # The form reads times in the status page's zone.
    earlier = timezone.now() - dt.timedelta(hours=2)
    shown = earlier.astimezone(ZoneInfo(settings.STATUS_TIME_ZONE)).strftime("%Y-%m-%dT%H:%M")
    client.post(
        f"/editor/incidents/{incident.pk}/updates/",
        {"status": "identified", "language": "en", "body": "We found it earlier.", "display_at": shown},
    )
    update = IncidentUpdate.objects.get(body__en="We found it earlier.")
    assert update.is_backdated
    assert abs(update.display_at - earlier) < dt.timedelta(minutes=1)
    assert b"backdated, posted" in client.get(f"/editor/incidents/{incident.pk}/").content


@pytest.mark.django_db
def test_an_update_cannot_be_dated_in_the_future(client, incident):
    future = (timezone.now() + dt.timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    response = client.post(
        f"/editor/incidents/{incident.pk}/updates/",
        {"status": "identified", "language": "en", "body": "Time travel.", "display_at": future},
    )
    assert response.status_code == 200
    assert b"cannot be dated in the future" in response.content
    assert b"Time travel." in response.content
    assert incident.updates.count() == 1


@pytest.mark.django_db
def test_resolving_returns_components_to_operational(client, incident, api):
    response = client.post(
        f"/editor/incidents/{incident.pk}/resolve/",
        {"resolve-language": "en", "resolve-body": "All good.", "resolve-version": incident.version},
    )
    assert response.status_code == 302
    incident.refresh_from_db()
    api.refresh_from_db()
    assert incident.status == "resolved"
    assert api.status == "operational"


HELD = "held by: Latency (95th percentile) 900 ms > 500 ms"


@pytest.fixture
def held_and_free(incident, api, webhooks, metric, responder):
    """The incident holds the API (measured past its threshold) and webhooks (measured by nothing)."""
    post_update(
        incident,
        PostUpdate(
            status="identified",
            body={"en": "A bad deploy."},
            language="en",
            component_statuses={webhooks: "major_outage"},
        ),
        actor=responder,
    )
    api.status_mode = "automatic"
    api.save(update_fields=["status_mode"])
    measure(metric, [900.0] * 5, at=timezone.now())
    incident.refresh_from_db()
    return incident


def _plain(content: bytes) -> str:
    return html.unescape(content.decode()).replace("\u00a0", " ")


@pytest.mark.django_db
def test_the_resolve_screen_shows_where_each_component_goes_and_what_holds_it(client, held_and_free):
    page = _plain(client.get(f"/editor/incidents/{held_and_free.pk}/").content)
    plan = page[page.index('id="resolve-resolution"') :]
    plan = plan[: plan.index("</ul>")]
    api_row = plan[plan.index('data-component="public-api"') :]
    assert 'data-resolves-to="degraded_performance"' in api_row[:80]
    assert HELD in api_row[: api_row.index("</li>")]
    webhook_row = plan[plan.index('data-component="webhook-delivery"') :]
    assert 'data-resolves-to="operational"' in webhook_row[:80]
    assert "held by" not in webhook_row[: webhook_row.index("</li>")]
    assert 'id="update-resolution"' in page  # "Resolved" in the update form shows the same plan
    assert 'placeholder="This incident has been resolved."' in page


@pytest.mark.django_db
def test_resolving_keeps_a_probe_held_component_and_the_timeline_says_why(
    client, held_and_free, api, webhooks
):
    response = client.post(
        f"/editor/incidents/{held_and_free.pk}/resolve/",
        {"resolve-language": "en", "resolve-body": "", "resolve-version": held_and_free.version},
    )
    assert response.status_code == 302
    api.refresh_from_db()
    webhooks.refresh_from_db()
    assert (api.status, webhooks.status) == ("degraded_performance", "operational")
    resolved = held_and_free.updates.timeline().first()
    assert resolved.body == {"en": "This incident has been resolved."}
    page = _plain(client.get(response["Location"]).content)
    assert "Webhook delivery: Major outage → Operational" in page
    assert (
        f'Public API: Partial outage → Degraded performance <span class="held-by" lang="en">{HELD}</span>'
        in page
    )


@pytest.mark.django_db
def test_resolved_in_the_update_form_follows_the_same_rule(client, held_and_free, api, webhooks):
    response = client.post(
        f"/editor/incidents/{held_and_free.pk}/updates/",
        {
            "status": "resolved",
            "language": "en",
            "body": "",
            "affected": ["public-api", "webhook-delivery"],
            "status_public-api": "partial_outage",  # left as the form showed them
            "status_webhook-delivery": "major_outage",
            "deliver_notifications": "on",
        },
    )
    assert response.status_code == 302
    api.refresh_from_db()
    webhooks.refresh_from_db()
    assert (api.status, webhooks.status) == ("degraded_performance", "operational")
    resolved = held_and_free.updates.timeline().first()
    assert resolved.body == {"en": "This incident has been resolved."}
    assert resolved.component_changes.get(component=api).held_by["en"].replace("\u00a0", " ") == HELD


@pytest.mark.django_db
def test_reopening_a_resolved_incident(client, incident):
    client.post(
        f"/editor/incidents/{incident.pk}/resolve/",
        {"resolve-language": "en", "resolve-body": "Fixed.", "resolve-version": incident.version},
    )
    incident.refresh_from_db()
    page = client.get(f"/editor/incidents/{incident.pk}/").content
    assert b'id="reopen-form"' in page and b'id="resolve-form"' not in page
    client.post(
        f"/editor/incidents/{incident.pk}/reopen/",
        {"reopen-language": "en", "reopen-body": "It is back.", "reopen-version": incident.version},
    )
    incident.refresh_from_db()
    assert incident.status == "investigating" and incident.resolved_at is None


@pytest.mark.django_db
def test_an_update_template_fills_the_update_form(client, incident):
    template = UpdateTemplate.objects.create(
        name="Fix deployed", language="nb", status="monitoring", body={"nb": "En rettelse er ute."}
    )
    page = client.get(f"/editor/incidents/{incident.pk}/?template={template.pk}").content.decode()
    assert "En rettelse er ute." in page
    assert '<option value="monitoring" selected>' in page
    assert '<option value="nb" selected>' in page


@pytest.mark.django_db
def test_update_templates_are_created_per_language(client):
    client.post(
        "/editor/templates/new/",
        {
            "name": "Investigating",
            "language": "es",
            "kind": "incident",
            "status": "investigating",
            "body_es": "Investigando.",
        },
    )
    template = UpdateTemplate.objects.get()
    assert template.language == "es" and template.body == {"es": "Investigando."}
    assert AuditEvent.objects.filter(action="update_template.created", subject_id=str(template.pk)).exists()
    bad = client.post(
        "/editor/templates/new/",
        {"name": "Wrong", "language": "fr", "kind": "incident", "status": "completed", "body_en": "Oui."},
    )
    assert bad.status_code == 200 and UpdateTemplate.objects.count() == 1
    assert (
        "Choose one of the site" in bad.content.decode() or b"not one of the available choices" in bad.content
    )


@pytest.mark.django_db
def test_scheduling_maintenance_leaves_components_alone_until_it_starts(client, api):
    start = timezone.now() + dt.timedelta(days=1)
    with timezone.override(dt.UTC):
        response = client.post(
            "/editor/maintenance/new/",
            {
                "title": "Database upgrade",
                "language": "en",
                "body": "We will upgrade the database.",
                "scheduled_for": timezone.localtime(start).strftime("%Y-%m-%dT%H:%M"),
                "scheduled_until": timezone.localtime(start + dt.timedelta(hours=2)).strftime(
                    "%Y-%m-%dT%H:%M"
                ),
                "affected": ["public-api"],
                "publish": "on",
            },
        )
    assert response.status_code == 302
    maintenance = Incident.objects.get()
    api.refresh_from_db()
    assert maintenance.is_maintenance and maintenance.status == "scheduled" and not maintenance.is_draft
    assert list(maintenance.components.all()) == [api]
    assert api.status == "operational"


@pytest.mark.django_db
def test_maintenance_times_are_read_in_the_status_page_zone(client, api, settings):
    settings.STATUS_TIME_ZONE = "Europe/Oslo"
    with time_machine.travel(dt.datetime(2026, 6, 1, 8, 0, tzinfo=dt.UTC), tick=False):
        client.post(
            "/editor/maintenance/new/",
            {
                "title": "Upgrade",
                "language": "en",
                "body": "Planned.",
                "scheduled_for": "2026-06-02T22:00",
                "scheduled_until": "2026-06-02T23:00",
                "affected": ["public-api"],
            },
        )
    maintenance = Incident.objects.get()
    assert maintenance.scheduled_for == dt.datetime(2026, 6, 2, 20, 0, tzinfo=dt.UTC)  # Oslo is UTC+2 in June


# --- Bad input keeps what was typed -------------------------------------------------------------


@pytest.mark.django_db
def test_declaring_without_a_title_keeps_the_text(client, api):
    response = client.post(
        "/editor/incidents/new/",
        {
            "title": "  ",
            "impact": "minor",
            "language": "en",
            "body": "Typed with care.",
            "affected": ["public-api"],
        },
    )
    assert response.status_code == 200
    assert b"This field is required." in response.content
    assert b"Typed with care." in response.content
    assert b'value="public-api"' in response.content and b"checked" in response.content
    assert not Incident.objects.exists()


@pytest.mark.django_db
def test_declaring_with_an_unknown_component_is_refused(client, api):
    response = client.post(
        "/editor/incidents/new/",
        {
            "title": "Outage",
            "impact": "minor",
            "language": "en",
            "body": "Hm.",
            "affected": ["no-such-thing"],
        },
    )
    assert response.status_code == 200
    assert b"no-such-thing is not one of the available choices" in response.content
    assert b'value="Outage"' in response.content
    assert not Incident.objects.exists()


@pytest.mark.django_db
def test_one_megabyte_of_text_is_refused_and_kept(client, incident):
    response = client.post(
        f"/editor/incidents/{incident.pk}/updates/",
        {"status": "identified", "language": "en", "body": ONE_MEGABYTE},
    )
    assert response.status_code == 200
    assert b"Ensure this value has at most 20000 characters" in response.content
    assert ONE_MEGABYTE.encode() in response.content
    assert incident.updates.count() == 1


@pytest.mark.django_db
def test_a_megabyte_title_is_refused(client, api):
    response = client.post(
        "/editor/incidents/new/", {"title": ONE_MEGABYTE, "impact": "minor", "language": "en", "body": "x"}
    )
    assert response.status_code == 200
    assert b"Ensure this value has at most 200 characters" in response.content
    assert not Incident.objects.exists()


@pytest.mark.django_db
def test_a_note_without_text_is_refused(client, incident, api):
    response = client.post(
        f"/editor/incidents/{incident.pk}/updates/",
        {
            "status": "",
            "language": "en",
            "body": "",
            "affected": ["public-api"],
            "status_public-api": "major_outage",
        },
    )
    assert response.status_code == 200
    assert b"A note needs a text." in response.content
    assert b'<option value="major_outage" selected>' in response.content
    api.refresh_from_db()
    assert api.status == "partial_outage"


@pytest.mark.django_db
def test_an_update_without_text_posts_the_default_message_of_its_status(client, incident):
    response = client.post(
        f"/editor/incidents/{incident.pk}/updates/",
        {"status": "identified", "language": "es", "body": ""},
    )
    assert response.status_code == 302
    newest = incident.updates.timeline().first()
    assert newest.status == "identified"
    assert newest.body == {"es": default_update_text("identified", language="es")}


@pytest.mark.django_db
def test_a_status_of_the_wrong_kind_is_refused(client, incident):
    response = client.post(
        f"/editor/incidents/{incident.pk}/updates/",
        {"status": "completed", "language": "en", "body": "Done."},
    )
    assert response.status_code == 200
    assert b"Select a valid choice" in response.content
    assert incident.updates.count() == 1


@pytest.mark.django_db
def test_maintenance_window_must_end_after_it_starts(client, api):
    response = client.post(
        "/editor/maintenance/new/",
        {
            "title": "Backwards",
            "language": "en",
            "body": "Hm.",
            "scheduled_for": "2027-01-02T10:00",
            "scheduled_until": "2027-01-02T09:00",
            "affected": ["public-api"],
        },
    )
    assert response.status_code == 200
    assert b"The window must end after it starts." in response.content
    assert b'value="2027-01-02T10:00"' in response.content
    assert not Incident.objects.exists()


@pytest.mark.django_db
def test_editing_an_incident_with_an_empty_title_keeps_the_impact(client, incident):
    response = client.post(
        f"/editor/incidents/{incident.pk}/edit/",
        {"title": "", "impact": "critical", "version": incident.version},
    )
    assert response.status_code == 200
    assert b'<option value="critical" selected>' in response.content
    incident.refresh_from_db()
    assert incident.title == {"en": "Elevated API errors"}


@pytest.mark.django_db
def test_an_update_that_leaves_components_alone_records_no_component_change(client, incident, api):
    client.post(
        f"/editor/incidents/{incident.pk}/updates/",
        {
            "status": "identified",
            "language": "en",
            "body": "Still broken.",
            "affected": ["public-api"],
            "status_public-api": "partial_outage",
        },
    )
    update = IncidentUpdate.objects.get(body__en="Still broken.")
    assert not update.component_changes.exists()
