"""Who may write what: the editor's roles, narrowed by token scope, for every write endpoint."""

import pytest
from rest_framework.test import APIClient

from incidents.models import ActionItem, ApiToken, AuditEvent, TokenScope
from incidents.services.api_tokens import issue_token
from incidents.services.postmortems import save_action_item, write_postmortem

PERSONAS = ["anonymous", "outsider", "viewer", "responder", "admin", "read_token", "write_token"]
RANK = {"viewer": 1, "responder": 2, "admin": 3}


@pytest.fixture
def world(page, admin):
    postmortem = write_postmortem(page["resolved"], language="en", sections={"summary": "Why."}, actor=admin)
    item = save_action_item(ActionItem(postmortem=postmortem, title={"en": "Alert on lag"}), actor=admin)
    return {**page, "postmortem": postmortem, "item": item}


def own_token(world, user):
    return issue_token(user, name="old", scope=TokenScope.READ, actor=user)[0].pk


WRITES = {
    "create group": (
        "admin",
        "post",
        lambda w, u: "/api/v1/component-groups/",
        {"slug": "edge", "name": {"en": "Edge"}},
    ),
    "edit group": (
        "admin",
        "patch",
        lambda w, u: f"/api/v1/component-groups/{w['group'].public_id}/",
        {"name": {"en": "Kernel"}},
    ),
    "create component": (
        "admin",
        "post",
        lambda w, u: "/api/v1/components/",
        {"slug": "cdn", "name": {"en": "CDN"}},
    ),
    "edit component": (
        "admin",
        "patch",
        lambda w, u: f"/api/v1/components/{w['rest'].public_id}/",
        {"showcase": False},
    ),
    "set component status": (
        "responder",
        "post",
        lambda w, u: f"/api/v1/components/{w['rest'].public_id}/status/",
        {"status": "partial_outage"},
    ),
    "create metric": (
        "admin",
        "post",
        lambda w, u: "/api/v1/metrics/",
        lambda w: {"component": w["rest"].public_id, "slug": "latency", "name": {"en": "Latency"}},
    ),
    "edit thresholds": (
        "admin",
        "patch",
        lambda w, u: f"/api/v1/metrics/{w['metric'].pk}/",
        {"degraded_threshold": 90},
    ),
    "declare incident": (
        "responder",
        "post",
        lambda w, u: "/api/v1/incidents/",
        {"title": "Outage", "language": "en", "body": "Down."},
    ),
    "edit incident": (
        "responder",
        "patch",
        lambda w, u: f"/api/v1/incidents/{w['incident'].public_id}/",
        {"impact": "major"},
    ),
    "post update": (
        "responder",
        "post",
        lambda w, u: f"/api/v1/incidents/{w['incident'].public_id}/updates/",
        {"status": "monitoring", "language": "en", "body": "Watching."},
    ),
    "resolve": (
        "responder",
        "post",
        lambda w, u: f"/api/v1/incidents/{w['incident'].public_id}/resolve/",
        {"language": "en", "body": "Fixed."},
    ),
    "reopen": (
        "responder",
        "post",
        lambda w, u: f"/api/v1/incidents/{w['resolved'].public_id}/reopen/",
        {"language": "en", "body": "Again."},
    ),
    "publish incident": (
        "responder",
        "post",
        lambda w, u: f"/api/v1/incidents/{w['draft'].public_id}/publish/",
        {},
    ),
    "write postmortem": (
        "responder",
        "post",
        lambda w, u: "/api/v1/postmortems/",
        lambda w: {"incident": w["incident"].public_id, "language": "en", "sections": {"summary": "S"}},
    ),
    "translate postmortem": (
        "responder",
        "patch",
        lambda w, u: f"/api/v1/postmortems/{w['postmortem'].pk}/",
        {"language": "ru", "sections": {"summary": "Почему."}},
    ),
    "publish postmortem": (
        "responder",
        "post",
        lambda w, u: f"/api/v1/postmortems/{w['postmortem'].pk}/publish/",
        {},
    ),
    "unpublish postmortem": (
        "responder",
        "post",
        lambda w, u: f"/api/v1/postmortems/{w['postmortem'].pk}/unpublish/",
        {},
    ),
    "create action item": (
        "responder",
        "post",
        lambda w, u: "/api/v1/action-items/",
        lambda w: {"postmortem": w["postmortem"].pk, "title": {"en": "Page on lag"}},
    ),
    "edit action item": (
        "responder",
        "patch",
        lambda w, u: f"/api/v1/action-items/{w['item'].pk}/",
        {"state": "done"},
    ),
    "create token": ("viewer", "post", lambda w, u: "/api/v1/tokens/", {"name": "ci", "scope": "read"}),
    "revoke token": ("viewer", "delete", lambda w, u: f"/api/v1/tokens/{own_token(w, u)}/", None),
}


def expected_allowed(persona: str, needed: str) -> bool:
    if persona in ("anonymous", "outsider", "read_token"):
        return False
    if persona == "write_token":
        return True  # an admin's read-write token
    return RANK[persona] >= RANK[needed]


@pytest.mark.parametrize("persona", PERSONAS)
@pytest.mark.parametrize("endpoint", WRITES)
def test_write_permissions(world, client_as, admin, responder, viewer, outsider, persona, endpoint):
    needed, method, url, payload = WRITES[endpoint]
    client = client_as(persona)
    user = {"outsider": outsider, "viewer": viewer, "responder": responder}.get(persona, admin)
    target = url(world, user)
    body = payload(world) if callable(payload) else payload
    events_before = AuditEvent.objects.count()

    response = getattr(client, method)(target, body, format="json")

    if expected_allowed(persona, needed):
        assert response.status_code in (200, 201, 204), response.content
        assert AuditEvent.objects.count() > events_before
    else:
        assert response.status_code == (401 if persona == "anonymous" else 403), response.content
        assert AuditEvent.objects.count() == events_before
        assert ApiToken.objects.filter(revoked_at__isnull=False).count() == 0


@pytest.mark.parametrize("persona", PERSONAS)
def test_reading_needs_a_staff_role(page, client_as, persona):
    response = client_as(persona).get("/api/v1/incidents/")

    expected = {"anonymous": 401, "outsider": 403}.get(persona, 200)
    assert response.status_code == expected
    if expected == 200:
        titles = [row["title"]["en"] for row in response.json()["results"]]
        assert "Probe breach" in titles  # staff see drafts


def test_a_viewers_write_token_cannot_write_what_the_viewer_cannot(page, api, viewer, token_for):
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {token_for(viewer, TokenScope.READ_WRITE)}")

    response = api.post("/api/v1/incidents/", {"title": "X", "language": "en", "body": "Y"}, format="json")

    assert response.status_code == 403


def test_session_writes_need_the_csrf_token(page, responder):
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(responder)

    response = client.post("/api/v1/incidents/", {"title": "X", "language": "en", "body": "Y"}, format="json")

    assert response.status_code == 403
    assert "CSRF" in response.json()["detail"]
