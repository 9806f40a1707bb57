"""Incidents linked as related: set through the API (by slug or id), shown on both incidents'
pages, audited, and refused with a 400 naming the field when unknown or the incident itself."""

import pytest

from incidents.lifecycle.commands import DeclareIncident
from incidents.lifecycle.opening import declare_incident
from incidents.models import AuditEvent, Incident
from tests.conftest import database_rows
from tests.hostile.conftest import (  # noqa: F401
    api,
    assert_api_refused,
    assert_form_refused,
    client_as,
    token_for,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def writer(client_as):  # noqa: F811
    return client_as("write_token")


@pytest.fixture
def deploy(admin):
    return declare_incident(
        DeclareIncident(title="Сбой доставки вебхуков", language="ru", body="Ищем."), actor=admin
    )


@pytest.fixture
def outage(admin):
    return declare_incident(
        DeclareIncident(title="Webhooks delayed", language="en", body="Looking."), actor=admin
    )


def related_links(client, url: str) -> str:
    page = client.get(url).content.decode()
    assert "Related incidents" in page, url
    return page.split('aria-labelledby="related"')[1]


def test_linking_by_slug_shows_the_link_on_both_pages(writer, client, deploy, outage):
    response = writer.patch(
        f"/api/v1/incidents/{outage.public_id}/", {"related": [deploy.slug]}, format="json"
    )
    assert response.status_code == 200, response.content
    assert response.json()["related"] == [deploy.slug]
    assert f'href="/incidents/{deploy.slug}/"' in related_links(client, f"/incidents/{outage.slug}/")
    assert f'href="/incidents/{outage.slug}/"' in related_links(client, f"/incidents/{deploy.slug}/")
    assert writer.get(f"/api/v1/incidents/{deploy.public_id}/").json()["related"] == [outage.slug]
    event = AuditEvent.objects.get(action="incident.related")
    assert event.after == {"related": [deploy.slug]} and event.before == {"related": []}


def test_the_heading_is_in_the_readers_language(writer, client, deploy, outage):
    writer.patch(f"/api/v1/incidents/{outage.public_id}/", {"related": [deploy.public_id]}, format="json")
    assert "Related incidents" in client.get(f"/incidents/{outage.slug}/").content.decode()


def test_declaring_with_related_incidents_links_them(writer, outage):
    body = {"title": "Follow-up", "language": "en", "body": "Again.", "related": [outage.public_id]}
    response = writer.post("/api/v1/incidents/", body, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["related"] == [outage.slug]
    assert list(outage.related.values_list("slug", flat=True)) == [response.json()["slug"]]


def test_an_empty_list_unlinks_both_ways(writer, deploy, outage):
    writer.patch(f"/api/v1/incidents/{outage.public_id}/", {"related": [deploy.slug]}, format="json")
    writer.patch(f"/api/v1/incidents/{outage.public_id}/", {"related": []}, format="json")
    assert not deploy.related.exists() and not outage.related.exists()


def test_a_draft_is_not_shown_as_related(writer, client, admin, outage):
    draft = declare_incident(
        DeclareIncident(title="Private", language="en", body="x", publish=False), actor=admin
    )
    writer.patch(f"/api/v1/incidents/{outage.public_id}/", {"related": [draft.slug]}, format="json")
    assert "Private" not in client.get(f"/incidents/{outage.slug}/").content.decode()


@pytest.mark.parametrize(
    "related",
    [["no-such-incident"], "not-a-list", [{"slug": "x"}], ["x" * 81], ["a"] * 51, [None]],
)
def test_unknown_or_malformed_related_incidents_are_refused_with_nothing_written(writer, outage, related):
    before = database_rows()
    response = writer.patch(f"/api/v1/incidents/{outage.public_id}/", {"related": related}, format="json")
    assert_api_refused(response, "related")
    assert database_rows() == before


def test_an_incident_cannot_be_related_to_itself(writer, outage):
    before = database_rows()
    response = writer.patch(
        f"/api/v1/incidents/{outage.public_id}/", {"related": [outage.slug]}, format="json"
    )
    assert_api_refused(response, "related")
    assert database_rows() == before
    assert Incident.objects.get(pk=outage.pk).version == outage.version


def test_declaring_with_an_unknown_related_incident_writes_nothing(writer):
    before = database_rows()
    body = {"title": "Follow-up", "language": "en", "body": "Again.", "related": ["nope"]}
    assert_api_refused(writer.post("/api/v1/incidents/", body, format="json"), "related")
    assert database_rows() == before


def editor_post(client, incident, related: str):
    return client.post(
        f"/editor/incidents/{incident.pk}/edit/",
        {
            "title": incident.title[incident.original_language],
            "impact": incident.impact,
            "display_time_zone": "",
            "related": related,
            "version": incident.version,
        },
    )


def test_the_editor_links_related_incidents_by_slug(client, responder, deploy, outage):
    client.force_login(responder)
    response = editor_post(client, outage, f"{deploy.slug}, ")
    assert response.status_code == 302
    assert list(deploy.related.values_list("slug", flat=True)) == [outage.slug]
    assert AuditEvent.objects.get(action="incident.related").actor == responder
    form = client.get(f"/editor/incidents/{outage.pk}/edit/").content.decode()
    assert f'value="{deploy.slug}"' in form


@pytest.mark.parametrize("related", ["no-such-incident", "self"])
def test_the_editor_refuses_unknown_or_self_related_incidents(client, responder, outage, related):
    client.force_login(responder)
    before = database_rows()
    response = editor_post(client, outage, outage.slug if related == "self" else related)
    assert_form_refused(response, "related")
    assert database_rows() == before
