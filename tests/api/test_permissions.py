"""Who may write what: the editor's roles, narrowed by token scope, for every write endpoint."""

import pytest
from django.core import mail
from rest_framework.test import APIClient

from incidents.lifecycle.commands import WritePostmortem
from incidents.lifecycle.postmortems import save_action_item, write_postmortem
from incidents.models import ActionItem, ApiToken, AuditEvent, Probe, Subscriber, TokenScope
from incidents.services.api_tokens import issue_token
from tests.api.conftest import build_page, build_probes, build_subscriber
from tests.conftest import side_fixture

PERSONAS = ["anonymous", "outsider", "viewer", "responder", "admin", "read_token", "write_token"]
RANK = {"viewer": 1, "responder": 2, "admin": 3}


def build_world(users) -> dict:
    """The page with probes, a subscriber and a postmortem with an action item."""
    admin = users["admin"]
    page = build_page(admin)
    postmortem = write_postmortem(
        page["resolved"], WritePostmortem(language="en", sections={"summary": "Why."}), actor=admin
    )
    item = save_action_item(ActionItem(postmortem=postmortem, title={"en": "Alert on lag"}), actor=admin)
    extra = {"subscriber": build_subscriber(page), "postmortem": postmortem, "item": item}
    return {**page, **build_probes(page, admin), **extra}


side = side_fixture(build_world)


@pytest.fixture
def world(side, db):
    return side[1]


@pytest.fixture
def page(world):
    return world


def _persona(name: str):
    """The persona `name` of the shared world, in place of the one made for each test."""
    return pytest.fixture(name=name)(lambda side, db: side[0][name])


admin, responder, viewer, outsider = (_persona(n) for n in ("admin", "responder", "viewer", "outsider"))


def stored_state():
    """What a refused write must leave as it was (besides the audit trail and tokens)."""
    return (
        list(Probe.objects.order_by("pk").values()),
        list(Subscriber.objects.order_by("pk").values()),
        sorted(Subscriber.components.through.objects.values_list("subscriber_id", "component_id")),
    )


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
    "create probe": (
        "admin",
        "post",
        lambda w, u: "/api/v1/probes/",
        lambda w: {
            "name": "Errors",
            "kind": "http",
            "metric": w["spare_metric"].pk,
            "url": "http://93.184.216.34/errors",
            "interval": 30,
            "timeout": 5,
        },
    ),
    "edit probe": (
        "admin",
        "patch",
        lambda w, u: f"/api/v1/probes/{w['http'].public_id}/",
        {"interval": 120},
    ),
    "delete probe": ("admin", "delete", lambda w, u: f"/api/v1/probes/{w['http'].public_id}/", None),
    "issue push token": (
        "admin",
        "post",
        lambda w, u: f"/api/v1/probes/{w['push'].public_id}/push-token/",
        {},
    ),
    "issue webhook secret": (
        "admin",
        "post",
        lambda w, u: f"/api/v1/probes/{w['webhook'].public_id}/webhook-secret/",
        {},
    ),
    "create subscriber": (
        "admin",
        "post",
        lambda w, u: "/api/v1/subscribers/",
        lambda w: {"email": "new@example.com", "language": "en", "components": [w["webhooks"].public_id]},
    ),
    "edit subscriber": (
        "admin",
        "patch",
        lambda w, u: f"/api/v1/subscribers/{w['subscriber'].public_id}/",
        {"language": "ru", "components": []},
    ),
    "delete subscriber": (
        "admin",
        "delete",
        lambda w, u: f"/api/v1/subscribers/{w['subscriber'].public_id}/",
        None,
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
def test_write_permissions(
    world,
    client_as,
    admin,
    responder,
    viewer,
    outsider,
    persona,
    endpoint,
    django_capture_on_commit_callbacks,
):
    needed, method, url, payload = WRITES[endpoint]
    client = client_as(persona)
    user = {"outsider": outsider, "viewer": viewer, "responder": responder}.get(persona, admin)
    target = url(world, user)
    body = payload(world) if callable(payload) else payload
    events_before = AuditEvent.objects.count()
    state_before = stored_state()

    with django_capture_on_commit_callbacks(execute=True):
        response = getattr(client, method)(target, body, format="json")

    if expected_allowed(persona, needed):
        assert response.status_code in (200, 201, 204), response.content
        assert AuditEvent.objects.count() > events_before
    else:
        assert response.status_code == (401 if persona == "anonymous" else 403), response.content
        assert AuditEvent.objects.count() == events_before
        assert ApiToken.objects.filter(revoked_at__isnull=False).count() == 0
        assert stored_state() == state_before
        assert mail.outbox == []


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


@pytest.mark.parametrize("persona", PERSONAS)
@pytest.mark.parametrize("path", ["/api/v1/probes/", "/api/v1/probe-runs/"])
def test_probes_and_runs_are_read_by_staff(world, client_as, persona, path):
    response = client_as(persona).get(path)

    assert response.status_code == {"anonymous": 401, "outsider": 403}.get(persona, 200)


@pytest.mark.parametrize("persona", PERSONAS)
def test_subscribers_are_read_by_admins_only(world, client_as, persona):
    listing = client_as(persona).get("/api/v1/subscribers/")
    detail = client_as(persona).get(f"/api/v1/subscribers/{world['subscriber'].public_id}/")

    allowed = persona in ("admin", "read_token", "write_token")  # the tokens are an admin's
    expected = 200 if allowed else {"anonymous": 401}.get(persona, 403)
    assert (listing.status_code, detail.status_code) == (expected, expected)
    if not allowed:
        assert b"ops@example.com" not in listing.content + detail.content
