"""Who may open which editor page and take which action.

Every editor URL and action against anonymous, outsider (staff-less account), viewer, responder and
admin. A refusal is a redirect to the login page (anonymous) or 403, and changes nothing.
"""

import datetime as dt

import pytest
from django.contrib.auth.models import Group
from django.test import Client
from django.utils import timezone

from incidents.models import (
    ActionItem,
    AuditEvent,
    Component,
    ComponentGroup,
    Incident,
    IncidentUpdate,
    Metric,
    Postmortem,
    UpdateTemplate,
)
from tests.conftest import side_fixture
from tests.editor.conftest import build_world, logged_in

PERSONAS = ["anonymous", "outsider", "viewer", "responder", "admin"]
RANK = {"anonymous": 0, "outsider": 0, "viewer": 1, "responder": 2, "admin": 3}
ROLE = {"viewer": 1, "responder": 2, "admin": 3}


def build_side(users) -> dict:
    """The components, the metric and the world every test of this module starts from."""
    group = ComponentGroup.objects.create(slug="core", name={"en": "Core", "nb": "Kjerne"}, position=1)
    api = Component.objects.create(slug="public-api", name={"en": "Public API", "nb": "Offentlig API"})
    Component.objects.create(slug="webhook-delivery", name={"en": "Webhook delivery"})
    metric = Metric.objects.create(
        component=api,
        slug="latency",
        name={"en": "Latency"},
        degraded_threshold=500,
        major_outage_threshold=2000,
    )
    return build_world(component=api, metric=metric, group=group, responder=users["responder"])


side = side_fixture(build_side)


@pytest.fixture
def world(side, db):
    return side[1]


@pytest.fixture
def clients(side, db):
    """A client per persona of the shared world; "anonymous" is not logged in."""
    users = side[0]
    return {"anonymous": Client(), **{name: logged_in(users[name]) for name in RANK if name != "anonymous"}}


def _soon(hours):
    return (timezone.now() + dt.timedelta(hours=hours)).strftime("%Y-%m-%dT%H:%M")


# (name, method, minimum role, url(world), data(world), status when allowed)
ACTIONS = [
    ("overview", "get", "viewer", lambda w: "/editor/", None, 200),
    ("audit", "get", "viewer", lambda w: "/editor/audit/", None, 200),
    ("action items", "get", "viewer", lambda w: "/editor/action-items/", None, 200),
    ("incident page", "get", "viewer", lambda w: f"/editor/incidents/{w['incident'].pk}/", None, 200),
    ("draft page", "get", "viewer", lambda w: f"/editor/incidents/{w['draft'].pk}/", None, 200),
    (
        "postmortem page",
        "get",
        "viewer",
        lambda w: f"/editor/incidents/{w['incident'].pk}/postmortem/",
        None,
        200,
    ),
    ("templates page", "get", "viewer", lambda w: "/editor/templates/", None, 200),
    ("declare form", "get", "responder", lambda w: "/editor/incidents/new/", None, 200),
    ("maintenance form", "get", "responder", lambda w: "/editor/maintenance/new/", None, 200),
    (
        "edit incident form",
        "get",
        "responder",
        lambda w: f"/editor/incidents/{w['incident'].pk}/edit/",
        None,
        200,
    ),
    ("edit update form", "get", "responder", lambda w: f"/editor/updates/{w['update'].pk}/en/", None, 200),
    ("edit template form", "get", "responder", lambda w: f"/editor/templates/{w['template'].pk}/", None, 200),
    ("components page", "get", "admin", lambda w: "/editor/components/", None, 200),
    ("new component form", "get", "admin", lambda w: "/editor/components/new/", None, 200),
    ("component page", "get", "admin", lambda w: f"/editor/components/{w['component'].pk}/", None, 200),
    (
        "new metric form",
        "get",
        "admin",
        lambda w: f"/editor/components/{w['component'].pk}/metrics/new/",
        None,
        200,
    ),
    ("metric page", "get", "admin", lambda w: f"/editor/metrics/{w['metric'].pk}/", None, 200),
    ("new group form", "get", "admin", lambda w: "/editor/groups/new/", None, 200),
    ("group page", "get", "admin", lambda w: f"/editor/groups/{w['group'].pk}/", None, 200),
    ("users page", "get", "admin", lambda w: "/editor/users/", None, 200),
    (
        "new group",
        "post",
        "admin",
        lambda w: "/editor/groups/new/",
        lambda w: {"slug": "edge", "position": 2, "name_en": "Edge"},
        302,
    ),
    (
        "edit group",
        "post",
        "admin",
        lambda w: f"/editor/groups/{w['group'].pk}/",
        lambda w: {"slug": "core", "position": 5, "name_en": "Core services"},
        302,
    ),
    (
        "change a role",
        "post",
        "admin",
        lambda w: f"/editor/users/{w['newcomer'].pk}/role/",
        lambda w: {f"u{w['newcomer'].pk}-role": "responder"},
        302,
    ),
    (
        "declare",
        "post",
        "responder",
        lambda w: "/editor/incidents/new/",
        lambda w: {
            "title": "New outage",
            "impact": "minor",
            "language": "en",
            "body": "Looking.",
            "publish": "on",
        },
        302,
    ),
    (
        "schedule maintenance",
        "post",
        "responder",
        lambda w: "/editor/maintenance/new/",
        lambda w: {
            "title": "DB upgrade",
            "language": "en",
            "body": "Planned.",
            "scheduled_for": _soon(24),
            "scheduled_until": _soon(26),
            "affected": ["public-api"],
            "publish": "on",
        },
        302,
    ),
    (
        "post update",
        "post",
        "responder",
        lambda w: f"/editor/incidents/{w['incident'].pk}/updates/",
        lambda w: {"status": "identified", "language": "en", "body": "Found it."},
        302,
    ),
    (
        "resolve",
        "post",
        "responder",
        lambda w: f"/editor/incidents/{w['incident'].pk}/resolve/",
        lambda w: {
            "resolve-language": "en",
            "resolve-body": "Fixed.",
            "resolve-version": w["incident"].version,
        },
        302,
    ),
    (
        "reopen",
        "post",
        "responder",
        lambda w: f"/editor/incidents/{w['resolved'].pk}/reopen/",
        lambda w: {"reopen-language": "en", "reopen-body": "Again.", "reopen-version": w["resolved"].version},
        302,
    ),
    (
        "publish incident",
        "post",
        "responder",
        lambda w: f"/editor/incidents/{w['draft'].pk}/publish/",
        lambda w: {},
        302,
    ),
    (
        "edit incident",
        "post",
        "responder",
        lambda w: f"/editor/incidents/{w['incident'].pk}/edit/",
        lambda w: {"title": "Renamed", "impact": "critical", "version": w["incident"].version},
        302,
    ),
    (
        "edit update",
        "post",
        "responder",
        lambda w: f"/editor/updates/{w['update'].pk}/en/",
        lambda w: {"text": "Corrected.", "version": w["update"].version},
        302,
    ),
    (
        "save postmortem",
        "post",
        "responder",
        lambda w: f"/editor/incidents/{w['incident'].pk}/postmortem/nb/",
        lambda w: {"summary": "Det gikk galt.", "version": w["postmortem"].version},
        302,
    ),
    (
        "preview postmortem",
        "post",
        "responder",
        lambda w: f"/editor/incidents/{w['incident'].pk}/postmortem/en/preview/",
        lambda w: {"summary": "**bold**"},
        200,
    ),
    ("markdown preview", "post", "responder", lambda w: "/editor/preview/", lambda w: {"text": "*hi*"}, 200),
    (
        "publish postmortem",
        "post",
        "responder",
        lambda w: f"/editor/incidents/{w['incident'].pk}/postmortem/publish/",
        lambda w: {"publish_with_empty_sections": "on"},
        302,
    ),
    (
        "add action item",
        "post",
        "responder",
        lambda w: f"/editor/incidents/{w['incident'].pk}/action-items/",
        lambda w: {
            "new-title": "Add alerts",
            "new-due": "Q1 2027",
            "new-state": "open",
        },
        302,
    ),
    (
        "edit action item",
        "post",
        "responder",
        lambda w: f"/editor/action-items/{w['item'].pk}/",
        lambda w: {
            f"item{w['item'].pk}-title": "Fix it",
            f"item{w['item'].pk}-state": "done",
        },
        302,
    ),
    (
        "new template",
        "post",
        "responder",
        lambda w: "/editor/templates/new/",
        lambda w: {
            "name": "Fixed",
            "language": "en",
            "kind": "incident",
            "status": "resolved",
            "body_en": "Fixed.",
        },
        302,
    ),
    (
        "edit template",
        "post",
        "responder",
        lambda w: f"/editor/templates/{w['template'].pk}/",
        lambda w: {
            "name": "Looking",
            "language": "en",
            "kind": "incident",
            "status": "",
            "body_en": "Hmm.",
            "version": 1,
        },
        302,
    ),
    (
        "delete template",
        "post",
        "responder",
        lambda w: f"/editor/templates/{w['template'].pk}/delete/",
        lambda w: {},
        302,
    ),
    (
        "new component",
        "post",
        "admin",
        lambda w: "/editor/components/new/",
        lambda w: {"slug": "search", "position": 0, "status_mode": "manual", "name_en": "Search"},
        302,
    ),
    (
        "edit component",
        "post",
        "admin",
        lambda w: f"/editor/components/{w['component'].pk}/",
        lambda w: {"slug": "public-api", "position": 3, "status_mode": "manual", "name_en": "API"},
        302,
    ),
    (
        "new metric",
        "post",
        "admin",
        lambda w: f"/editor/components/{w['component'].pk}/metrics/new/",
        lambda w: _metric_data(slug="errors"),
        302,
    ),
    (
        "edit thresholds",
        "post",
        "admin",
        lambda w: f"/editor/metrics/{w['metric'].pk}/",
        lambda w: _metric_data(slug="latency", degraded_threshold=800),
        302,
    ),
]


def _metric_data(**overrides):
    data = {
        "slug": "m",
        "kind": "latency",
        "unit": "ms",
        "precision": 0,
        "aggregation": "p95",
        "window": 5,
        "expected_interval": 60,
        "higher_is_worse": "on",
        "degraded_threshold": 500,
        "position": 0,
        "name_en": "Metric",
    }
    data.update(overrides)
    return data


def snapshot():
    """What a refused request must leave untouched."""
    return {
        "audit": AuditEvent.objects.count(),
        "incidents": list(
            Incident.objects.order_by("pk").values_list("pk", "status", "version", "published_at", "impact")
        ),
        "updates": list(IncidentUpdate.objects.order_by("pk").values_list("pk", "version")),
        "postmortems": list(Postmortem.objects.values_list("pk", "state", "version")),
        "items": list(ActionItem.objects.order_by("pk").values_list("pk", "state", "title")),
        "templates": list(UpdateTemplate.objects.values_list("pk", "name", "body")),
        "components": list(Component.objects.order_by("pk").values_list("pk", "slug", "status", "position")),
        "groups": list(ComponentGroup.objects.order_by("pk").values_list("pk", "slug", "position")),
        "roles": list(Group.objects.order_by("pk").values_list("name", "user__username")),
        "metrics": list(Metric.objects.order_by("pk").values_list("pk", "slug", "degraded_threshold")),
    }


@pytest.mark.django_db
@pytest.mark.parametrize("persona", PERSONAS)
@pytest.mark.parametrize(
    ("name", "method", "minimum", "url", "data", "allowed_status"), ACTIONS, ids=[a[0] for a in ACTIONS]
)
def test_permission_matrix(clients, world, persona, name, method, minimum, url, data, allowed_status):
    client = clients[persona]
    before = snapshot()
    target = url(world)
    response = client.get(target) if method == "get" else client.post(target, data(world))
    if RANK[persona] >= ROLE[minimum]:
        assert response.status_code == allowed_status, response.content[:2000]
        if method == "post" and name not in ("preview postmortem", "markdown preview"):
            assert snapshot() != before, f"{name} as {persona} changed nothing"
    else:
        if persona == "anonymous":
            assert response.status_code == 302
            assert response["Location"].startswith("/editor/login/?next=")
        else:
            assert response.status_code == 403
        assert snapshot() == before


@pytest.mark.django_db
@pytest.mark.parametrize("persona", PERSONAS)
def test_action_urls_refuse_get(clients, world, persona):
    """Actions change state only on POST; a GET never does."""
    before = snapshot()
    for name, method, _minimum, url, _data, _status in ACTIONS:
        if method != "post" or name in (
            "new group",
            "edit group",
            "declare",
            "schedule maintenance",
            "edit incident",
            "edit update",
            "edit template",
            "new component",
            "edit component",
            "new metric",
            "edit thresholds",
        ):
            continue
        response = clients[persona].get(url(world))
        assert response.status_code in (302, 403, 405), name
    assert snapshot() == before


@pytest.mark.django_db
def test_viewer_sees_no_edit_forms_that_work(clients, world):
    """A viewer reads the cockpit; posting from it is refused."""
    page = clients["viewer"].get(f"/editor/incidents/{world['incident'].pk}/")
    assert page.status_code == 200
    assert b"API errors" in page.content
    refused = clients["viewer"].post(
        f"/editor/incidents/{world['incident'].pk}/updates/",
        {"status": "identified", "language": "en", "body": "x"},
    )
    assert refused.status_code == 403


@pytest.mark.django_db
def test_a_viewer_is_not_offered_forms_they_cannot_use(clients, world):
    cockpit = clients["viewer"].get(f"/editor/incidents/{world['incident'].pk}/").content.decode()
    assert 'id="update-form"' not in cockpit and 'id="resolve-form"' not in cockpit
    assert "/editor/incidents/new/" not in cockpit and "/editor/components/" not in cockpit
    postmortem = (
        clients["viewer"].get(f"/editor/incidents/{world['incident'].pk}/postmortem/").content.decode()
    )
    assert 'id="postmortem-form"' not in postmortem and 'id="new-action-item"' not in postmortem
    assert "Broke." in postmortem and "Fix" in postmortem  # read-only, but readable
    responder_page = clients["responder"].get(f"/editor/incidents/{world['incident'].pk}/").content.decode()
    assert 'id="update-form"' in responder_page and "/editor/components/" not in responder_page
