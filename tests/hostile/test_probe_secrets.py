"""A probe's credentials are write-only wherever they sit: every header value (whatever the
header is called) and every value of its URL's query string. No reader sees them back through
the API, the editor, the admin or the audit trail; saving what was read keeps them; a mask that
matches nothing stored is refused, naming the field, with nothing written."""

import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from incidents.models import AuditEvent, Probe
from incidents.services.probes import delete_probe, save_probe
from tests.conftest import database_rows

from .conftest import refused_without_trace

HONEYCOMB = "hc-team-s3cret"
SESSION = "sess-s3cret"
QUERY_KEY = "q-s3cret"
SECRETS = (HONEYCOMB, SESSION, QUERY_KEY)
URL = f"http://93.184.216.34/health?api_key={QUERY_KEY}&region=eu"


@pytest.fixture
def guarded(probes, admin):
    """The HTTP probe, its credentials in headers not named like credentials and in its URL."""
    probe = probes["http"]
    probe.url = URL
    probe.config = {"headers": {"X-Honeycomb-Team": HONEYCOMB, "Session": SESSION}}
    return save_probe(probe, actor=admin)


def assert_no_secret(response) -> None:
    assert response.status_code == 200, response.status_code
    text = response.content.decode()
    for secret in SECRETS:
        assert secret not in text, f"{secret} read back"


@pytest.fixture
def superuser(db):
    return get_user_model().objects.create_superuser("root", "root@example.com", "not-used")


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize("persona", ["viewer", "responder"])
def test_no_reader_sees_a_header_or_query_value_through_the_api(guarded, client_as, persona):
    client = client_as(persona)

    assert_no_secret(client.get(f"/api/v1/probes/{guarded.public_id}/"))
    assert_no_secret(client.get("/api/v1/probes/"))


@pytest.mark.parametrize("persona", ["viewer", "responder"])
def test_no_reader_sees_a_header_or_query_value_in_the_audit_trail(guarded, client_as, request, persona):
    editor = logged_in(request.getfixturevalue(persona))

    assert_no_secret(client_as(persona).get("/api/v1/audit-events/?subject_type=probe"))
    assert_no_secret(editor.get("/editor/audit/?subject_type=probe"))
    assert_no_secret(editor.get("/editor/"))


def test_the_audit_trail_masks_what_was_stored_before_every_value_was_masked(guarded, client_as, viewer):
    # An event as written when only credential-named headers were masked.
    AuditEvent.objects.filter(action="probe.changed").update(
        after={"url": URL, "config": {"headers": {"X-Honeycomb-Team": HONEYCOMB, "Session": SESSION}}}
    )

    assert_no_secret(client_as("viewer").get("/api/v1/audit-events/?subject_type=probe"))
    assert_no_secret(logged_in(viewer).get("/editor/audit/?subject_type=probe"))


def test_deleting_a_probe_leaves_no_credential_in_the_audit_trail(guarded, client_as, admin):
    delete_probe(guarded, actor=admin)

    event = AuditEvent.objects.get(action="probe.deleted")
    assert not any(secret in json.dumps(event.before) for secret in SECRETS)
    assert_no_secret(client_as("viewer").get("/api/v1/audit-events/?subject_type=probe"))


def test_the_editor_shows_masks_and_saving_them_back_keeps_the_credentials(guarded, admin):
    editor = logged_in(admin)
    page = editor.get(f"/editor/probes/{guarded.pk}/")
    assert_no_secret(page)
    assert_no_secret(editor.get("/editor/probes/"))
    form = page.context["form"]
    data = {name: form[name].value() for name in form.fields if form[name].value() is not None}
    data["name"] = "API health, renamed"

    response = editor.post(f"/editor/probes/{guarded.pk}/", data)

    assert response.status_code == 302, response.content.decode()[:2000]
    saved = Probe.objects.get(pk=guarded.pk)
    assert (saved.name, saved.url) == ("API health, renamed", URL)
    assert saved.config == {"headers": {"X-Honeycomb-Team": HONEYCOMB, "Session": SESSION}}


def test_the_admin_shows_masks_and_saving_them_back_keeps_the_credentials(guarded, superuser):
    admin_site = logged_in(superuser)
    page = admin_site.get(f"/admin/incidents/probe/{guarded.pk}/change/")
    assert_no_secret(page)
    form = page.context["adminform"].form
    data = {name: form[name].value() for name in form.fields if form[name].value() not in (None, False)}
    data["config"] = form["config"].value()

    response = admin_site.post(f"/admin/incidents/probe/{guarded.pk}/change/", data)

    assert response.status_code == 302, response.content.decode()[:3000]
    saved = Probe.objects.get(pk=guarded.pk)
    assert saved.url == URL
    assert saved.config == {"headers": {"X-Honeycomb-Team": HONEYCOMB, "Session": SESSION}}


def test_the_api_shows_a_query_value_masked_and_keeps_it_when_sent_back(guarded, client_as):
    writer = client_as("admin")
    read = writer.get(f"/api/v1/probes/{guarded.public_id}/").json()
    assert QUERY_KEY not in read["url"]

    response = writer.patch(
        f"/api/v1/probes/{guarded.public_id}/", {"url": read["url"], "config": read["config"]}, format="json"
    )

    assert response.status_code == 200, response.content
    saved = Probe.objects.get(pk=guarded.pk)
    assert (saved.url, saved.config["headers"]["Session"]) == (URL, SESSION)


def test_a_query_mask_that_matches_nothing_stored_is_refused(guarded, client_as):
    before = database_rows()
    masked = client_as("admin").get(f"/api/v1/probes/{guarded.public_id}/").json()["url"]

    response = client_as("admin").patch(
        f"/api/v1/probes/{guarded.public_id}/",
        {"url": masked.replace("api_key=", "token=")},
        format="json",
    )

    refused_without_trace(response, "url", before)
