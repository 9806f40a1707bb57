"""Who may read and write what, through every route of both APIs, the editor and the admin.

Each row of a table is one route and method with the least role that may use it; every row is
tried as every persona: anonymous, an account without a role, each role, and a token of each
scope held by each role (a token never does more than its holder, nor write with read scope).
Allowed answers 2xx/3xx; refused answers 401/403 or the login page, and leaves the database
exactly as it was, audit trail included. Every answer is searched for what its reader may not
see: probe credentials (every header and URL query value) and webhook secrets (nobody), subscriber addresses and webhook URLs
(admins only). The tests at the end walk the URL resolver: a route without a row fails.
"""

import datetime as dt
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib import admin as django_admin
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve
from django.utils import timezone
from rest_framework.test import APIClient

from incidents.intake.rules import save_alert_rule
from incidents.lifecycle.commands import WritePostmortem
from incidents.lifecycle.postmortems import save_action_item, write_postmortem
from incidents.models import (
    ActionItem,
    AlertRule,
    AuditEvent,
    Channel,
    Component,
    ComponentGroup,
    Delivery,
    DeliveryState,
    IntakeAlert,
    Metric,
    Probe,
    ProbeRegion,
    ProbeRun,
    Sample,
    Subscriber,
    TokenScope,
)
from incidents.roles import Role
from incidents.services.api_tokens import issue_token
from incidents.services.probes import save_probe
from incidents.services.subscriptions import confirm_subscription, subscribe
from tests.api.conftest import build_page, build_probes, build_subscriber
from tests.api.test_permissions import WRITES as API_WRITES
from tests.api.test_permissions import own_token
from tests.conftest import database_rows, side_fixture
from tests.editor.conftest import build_world as build_editor_world
from tests.editor.test_permissions import ACTIONS as EDITOR_ACTIONS

PROBE_CREDENTIAL = "Bearer s3cret-probe-credential"
# Credentials in headers not named like one, and in the probe URL's query string.
PROBE_HEADERS = {"X-Honeycomb-Team": "s3cret-honeycomb-team", "Session": "s3cret-session-id"}
PROBE_URL = "http://93.184.216.34/health?api_key=s3cret-query-value"
HOOK_URL = "https://hooks.example.com/services/s3cret-hook-path"
# A chat target is a credential: masked even for admins.
SLACK_URL = "https://hooks.slack.example/services/T0/B0/s3cret-slack-path"
DISCORD_URL = "discord://4174216298/s3cretD1scordT0ken"
ADDRESS = "ops@example.com"

# --- personas ---

ROLES = {"viewer": Role.VIEWER, "responder": Role.RESPONDER, "admin": Role.ADMIN}
RANK = {"public": 0, "viewer": 1, "responder": 2, "admin": 3, "superuser": 4}
SESSION_PERSONAS = ["anonymous", "outsider", "viewer", "responder", "admin"]
# An alert intake token exists only for responders and admins (a viewer cannot be issued one).
TOKEN_PERSONAS = [
    f"{role}_{scope.value}_token"
    for role in ROLES
    for scope in TokenScope
    if not (scope == TokenScope.INTAKE and role == "viewer")
]
API_PERSONAS = SESSION_PERSONAS + TOKEN_PERSONAS
# A token is no way into the editor or the admin: the strongest one stands for all of them.
EDITOR_PERSONAS = SESSION_PERSONAS + ["admin_read_write_token"]
ADMIN_SITE_PERSONAS = EDITOR_PERSONAS + ["superuser"]


@dataclass(frozen=True)
class Persona:
    name: str
    rank: int  # what its role allows (0: nothing)
    logged_in: bool  # by session
    token_scope: str | None = None

    @property
    def may_write(self) -> bool:
        return self.token_scope in (None, TokenScope.READ_WRITE)

    @property
    def holder(self) -> str:
        """The user acting (or, for anonymous, anybody), whose own tokens a row may point at."""
        return "admin" if self.name == "anonymous" else self.name.split("_")[0]


def persona(name: str) -> Persona:
    if name == "anonymous":
        return Persona(name, 0, logged_in=False)
    if name == "outsider":
        return Persona(name, 0, logged_in=True)
    if name == "superuser":
        return Persona(name, RANK["superuser"], logged_in=True)
    if name in ROLES:
        return Persona(name, RANK[name], logged_in=True)
    role, scope = name.removesuffix("_token").split("_", 1)
    return Persona(name, RANK[role], logged_in=False, token_scope=TokenScope(scope))


@pytest.fixture
def client_for(users):
    """A client acting as a persona: by session, by bearer token, or anonymous."""

    def make(name: str, client_class=APIClient):
        client = client_class()
        who = persona(name)
        if who.logged_in:
            client.force_login(users[name])
        elif who.token_scope:
            _token, secret = issue_token(
                users[who.holder], name="matrix", scope=who.token_scope, actor=users[who.holder]
            )
            client.defaults["HTTP_AUTHORIZATION"] = f"Bearer {secret}"
        return client

    return make


# --- what each may see ---


def secrets_of(objects) -> dict[str, list[str]]:
    """Strings nobody may read back, and strings only admins may read."""
    return {
        "nobody": [
            "s3cret-probe-credential",
            *PROBE_HEADERS.values(),
            "s3cret-query-value",
            objects["webhook"].webhook_secret,
            objects["hook"].webhook_secret,
            "s3cret-slack-path",
            "s3cretD1scordT0ken",
        ],
        "admins": [ADDRESS, "hooks.example.com", "s3cret-hook-path"],
    }


def assert_shows_nothing_hidden(response, who: Persona, objects) -> None:
    text = response.content.decode(errors="replace")
    hidden = secrets_of(objects)
    for secret in hidden["nobody"]:
        assert secret not in text, f"{who.name} read a secret: {secret}"
    if who.rank < RANK["admin"]:
        for recipient in hidden["admins"]:
            assert recipient not in text, f"{who.name} read a recipient: {recipient}"


# --- the worlds the rows act on ---


def failed_delivery(subscriber, update) -> Delivery:
    return Delivery.objects.create(
        update=update,
        subscriber=subscriber,
        channel=subscriber.channel,
        idempotency_key=f"matrix-{subscriber.pk}",
        state=DeliveryState.FAILED,
        attempts=5,
        last_error=f"refused by {subscriber.endpoint_url or subscriber.email}",
    )


def add_secrets_and_recipients(objects, admin) -> dict:
    """A probe credential, a webhook subscriber, a run and failed deliveries to both subscribers."""
    http = objects["http"]
    http.config = {"headers": {"Authorization": PROBE_CREDENTIAL, "Accept": "text/plain", **PROBE_HEADERS}}
    http.url = PROBE_URL
    save_probe(http, actor=admin)
    hook = Subscriber.objects.create(
        channel=Channel.WEBHOOK, email="", endpoint_url=HOOK_URL, confirmed_at=timezone.now()
    )
    Subscriber.objects.create(channel=Channel.SLACK, target=SLACK_URL, confirmed_at=timezone.now())
    now = timezone.now()
    run = ProbeRun.objects.create(
        probe=http, scheduled_at=now, deadline=now + dt.timedelta(seconds=30), abandon_after=now
    )
    update = objects["incident"].updates.first()
    deliveries = [failed_delivery(objects["subscriber"], update), failed_delivery(hook, update)]
    return {**objects, "hook": hook, "run": run, "delivery": deliveries[1]}


def add_intake(world, admin) -> dict:
    """An alert rule on an automatic component, and an alert no rule took."""
    alerting = Component.objects.create(slug="alerting", name={"en": "Alerting"}, status_mode="automatic")
    rule = save_alert_rule(
        AlertRule(name="Alerting down", matchers=['service="alerting"'], component=alerting), actor=admin
    )
    alert = IntakeAlert.objects.create(
        source="alertmanager",
        fingerprint="0a1b2c3d4e5f6071",
        name="DiskFull",
        state="firing",
        labels={"alertname": "DiskFull"},
        starts_at=timezone.now(),
    )
    return {**world, "alerting": alerting, "rule": rule, "alert": alert}


INTAKE_PAYLOAD = {
    "version": "4",
    "status": "firing",
    "alerts": [
        {
            "status": "firing",
            "labels": {"alertname": "QueueLag", "service": "alerting"},
            "annotations": {"summary": "Lagging"},
            "startsAt": "2026-11-30T21:14:05Z",
            "endsAt": "0001-01-01T00:00:00Z",
            "fingerprint": "9f8e7d6c5b4a3921",
        }
    ],
}


def build_api_world(users) -> dict:
    admin = users["admin"]
    page = build_page(admin)
    world = {**page, **build_probes(page, admin), "subscriber": build_subscriber(page)}
    world["postmortem"] = write_postmortem(
        page["resolved"], WritePostmortem(language="en", sections={"summary": "Why."}), actor=admin
    )
    world["item"] = save_action_item(
        ActionItem(postmortem=world["postmortem"], title={"en": "Alert on lag"}), actor=admin
    )
    extended = add_intake(add_secrets_and_recipients(world, admin), admin)
    return {**extended, "sample": Sample.objects.first(), "event": AuditEvent.objects.order_by("pk").last()}


def build_editor_side(users) -> dict:
    admin = users["admin"]
    group = ComponentGroup.objects.create(slug="core", name={"en": "Core", "nb": "Kjerne"}, position=1)
    component = Component.objects.create(slug="public-api", name={"en": "Public API"})
    metric = Metric.objects.create(
        component=component, slug="latency", name={"en": "Latency"}, degraded_threshold=500
    )
    objects = build_editor_world(
        component=component, metric=metric, group=group, responder=users["responder"]
    )

    def probe(kind, slug, url=""):
        spare = Metric.objects.create(component=component, slug=slug, name={"en": slug}, unit="ms")
        fields = {"url": url, "interval": 60, "timeout": 5} if url else {"url": "", "interval": 60}
        return save_probe(Probe(name=slug, kind=kind, metric=spare, **fields), actor=admin)

    objects |= {
        "http": probe("http", "health", "http://93.184.216.34/health"),
        "push": probe("push", "lag"),
        "webhook": probe("webhook", "round-trip", "http://93.184.216.34/trigger"),
        "spare_metric": Metric.objects.create(component=component, slug="errors-total", name={"en": "E"}),
        # Inactive: it takes no runs, so the other rows' probes run as before.
        "region": ProbeRegion.objects.create(name="eu-north", active=False),
    }
    objects["subscriber"] = confirm_subscription(
        subscribe(email=ADDRESS, language="en", components=[component], send_mail=False).subscriber
    )
    return add_intake(add_secrets_and_recipients(objects, admin), admin)


api_side = side_fixture(build_api_world, scope="class")
editor_side = side_fixture(build_editor_side, scope="class")


@pytest.fixture
def api_world(api_side, db):
    return api_side[1]


@pytest.fixture
def editor_world(editor_side, db):
    return editor_side[1]


# --- the tables ---


@dataclass(frozen=True)
class Row:
    name: str
    method: str
    minimum: str  # "public", "viewer", "responder", "admin" or "superuser"
    path: Any  # (world, user) -> str
    body: Any = None  # world -> dict, or a dict
    allowed_status: int | None = None  # when one status is the answer; else any 2xx/3xx

    def data(self, objects):
        return self.body(objects) if callable(self.body) else self.body


def _api_write(name, spec) -> Row:
    minimum, method, path, body = spec
    return Row(name, method, minimum, path, body)


def _read(name, minimum, path) -> Row:
    return Row(name, "get", minimum, path, allowed_status=200)


# One resolved incident of a Statuspage export, for the import rows.
STATUSPAGE_INCIDENT = {
    "id": "p0rtm4tr1x01",
    "name": "Delayed deliveries",
    "status": "resolved",
    "impact": "minor",
    "created_at": "2018-03-01T10:00:00Z",
    "resolved_at": "2018-03-01T11:00:00Z",
    "incident_updates": [
        {
            "id": "p0rtm4tr1xu1",
            "status": "resolved",
            "body": "Deliveries are back to normal.",
            "created_at": "2018-03-01T11:00:00Z",
            "display_at": "2018-03-01T11:00:00Z",
        }
    ],
    "components": [],
}

API_ROWS = [
    _read("api root", "viewer", lambda w, u: "/api/v1/"),
    _read("list groups", "viewer", lambda w, u: "/api/v1/component-groups/"),
    _read("read group", "viewer", lambda w, u: f"/api/v1/component-groups/{w['group'].public_id}/"),
    _read("list components", "viewer", lambda w, u: "/api/v1/components/"),
    _read("read component", "viewer", lambda w, u: f"/api/v1/components/{w['rest'].public_id}/"),
    _read("list metrics", "viewer", lambda w, u: "/api/v1/metrics/"),
    _read("read metric", "viewer", lambda w, u: f"/api/v1/metrics/{w['metric'].pk}/"),
    _read("list samples", "viewer", lambda w, u: "/api/v1/samples/"),
    _read("read sample", "viewer", lambda w, u: f"/api/v1/samples/{w['sample'].pk}/"),
    _read("list incidents", "viewer", lambda w, u: "/api/v1/incidents/"),
    _read("read draft", "viewer", lambda w, u: f"/api/v1/incidents/{w['draft'].public_id}/"),
    _read("read timeline", "viewer", lambda w, u: f"/api/v1/incidents/{w['incident'].public_id}/updates/"),
    _read(
        "update deliveries",
        "viewer",
        lambda w, u: (
            f"/api/v1/incidents/{w['incident'].public_id}/updates/{w['incident'].updates.first().public_id}"
            "/deliveries/"
        ),
    ),
    _read("list postmortems", "viewer", lambda w, u: "/api/v1/postmortems/"),
    _read("read postmortem", "viewer", lambda w, u: f"/api/v1/postmortems/{w['postmortem'].pk}/"),
    _read("list action items", "viewer", lambda w, u: "/api/v1/action-items/"),
    _read("read action item", "viewer", lambda w, u: f"/api/v1/action-items/{w['item'].pk}/"),
    _read("list audit events", "viewer", lambda w, u: "/api/v1/audit-events/"),
    _read("read audit event", "viewer", lambda w, u: f"/api/v1/audit-events/{w['event'].pk}/"),
    _read("list own tokens", "viewer", lambda w, u: "/api/v1/tokens/"),
    _read("read own token", "viewer", lambda w, u: f"/api/v1/tokens/{own_token(w, u)}/"),
    _read("list probes", "viewer", lambda w, u: "/api/v1/probes/"),
    _read("read probe", "viewer", lambda w, u: f"/api/v1/probes/{w['http'].public_id}/"),
    _read("list probe runs", "viewer", lambda w, u: "/api/v1/probe-runs/"),
    _read("read probe run", "viewer", lambda w, u: f"/api/v1/probe-runs/{w['run'].pk}/"),
    _read("list subscribers", "admin", lambda w, u: "/api/v1/subscribers/"),
    _read("read subscriber", "admin", lambda w, u: f"/api/v1/subscribers/{w['hook'].public_id}/"),
    Row(
        "create chat subscriber",
        "post",
        "admin",
        lambda w, u: "/api/v1/subscribers/",
        {"channel": "apprise", "target": DISCORD_URL, "language": "en"},
    ),
    _read("schema", "public", lambda w, u: "/api/schema/"),
    _read("docs", "public", lambda w, u: "/api/docs/"),
    _read("v2 summary", "public", lambda w, u: "/api/v2/summary.json"),
    _read("v2 status", "public", lambda w, u: "/api/v2/status.json"),
    _read("v2 components", "public", lambda w, u: "/api/v2/components.json"),
    _read("v2 incidents", "public", lambda w, u: "/api/v2/incidents.json"),
    _read("v2 unresolved", "public", lambda w, u: "/api/v2/incidents/unresolved.json"),
    _read("v2 maintenances", "public", lambda w, u: "/api/v2/scheduled-maintenances.json"),
    _read("v2 upcoming", "public", lambda w, u: "/api/v2/scheduled-maintenances/upcoming.json"),
    _read("v2 active", "public", lambda w, u: "/api/v2/scheduled-maintenances/active.json"),
    _read("session login page", "public", lambda w, u: "/api/v1/auth/login/"),
    Row("session logout", "post", "public", lambda w, u: "/api/v1/auth/logout/", {}),
    *[_api_write(name, spec) for name, spec in API_WRITES.items()],
    Row(
        "import samples",
        "post",
        "admin",
        lambda w, u: f"/api/v1/metrics/{w['metric'].pk}/samples/import/",
        {"samples": [{"at": "2018-03-01T10:00:00Z", "value": 12.5}]},
        200,
    ),
    _read("read configuration", "admin", lambda w, u: "/api/v1/config/"),
    _read("configuration schema", "admin", lambda w, u: "/api/v1/config/schema/"),
    Row("configuration diff", "post", "admin", lambda w, u: "/api/v1/config/diff/", {"version": 1}, 200),
    Row("apply configuration", "post", "admin", lambda w, u: "/api/v1/config/apply/", {"version": 1}, 200),
    _read("list alert rules", "viewer", lambda w, u: "/api/v1/alert-rules/"),
    _read("read alert rule", "viewer", lambda w, u: f"/api/v1/alert-rules/{w['rule'].public_id}/"),
    _read("list received alerts", "viewer", lambda w, u: "/api/v1/intake-alerts/"),
    _read("read received alert", "viewer", lambda w, u: f"/api/v1/intake-alerts/{w['alert'].public_id}/"),
    Row(
        "create alert rule",
        "post",
        "admin",
        lambda w, u: "/api/v1/alert-rules/",
        {"name": "New", "matchers": ['severity="page"'], "component": "alerting", "status": "partial_outage"},
        201,
    ),
    Row(
        "change alert rule",
        "patch",
        "admin",
        lambda w, u: f"/api/v1/alert-rules/{w['rule'].public_id}/",
        {"status": "degraded_performance"},
        200,
    ),
    Row(
        "delete alert rule",
        "delete",
        "admin",
        lambda w, u: f"/api/v1/alert-rules/{w['rule'].public_id}/",
        None,
        204,
    ),
    Row(
        "alertmanager intake",
        "post",
        "intake",
        lambda w, u: "/api/v1/intake/alertmanager/",
        INTAKE_PAYLOAD,
        200,
    ),
    Row("grafana intake", "post", "intake", lambda w, u: "/api/v1/intake/grafana/", INTAKE_PAYLOAD, 200),
    Row(
        "import a statuspage export",
        "post",
        "admin",
        lambda w, u: "/api/v1/imports/statuspage/",
        {"incidents": [STATUSPAGE_INCIDENT]},
        200,
    ),
]


def _editor(name, method, minimum, url, data, allowed_status) -> Row:
    return Row(name, method, minimum, lambda w, u, url=url: url(w), data, allowed_status)


PROBE_TIMINGS = {"interval": 60, "connect_timeout": 3, "read_timeout": 5, "timeout": 5}

EDITOR_ROWS = [
    *[_editor(*action) for action in EDITOR_ACTIONS],
    Row("login page", "get", "public", lambda w, u: "/editor/login/"),
    Row("log out", "post", "public", lambda w, u: "/editor/logout/", {}, 302),
    Row(
        "unpublish postmortem",
        "post",
        "responder",
        lambda w, u: f"/editor/incidents/{w['incident'].pk}/postmortem/unpublish/",
        {},
        302,
    ),
    Row("deliveries", "get", "viewer", lambda w, u: "/editor/deliveries/", None, 200),
    Row("alert intake", "get", "viewer", lambda w, u: "/editor/intake/", None, 200),
    Row("new alert rule form", "get", "admin", lambda w, u: "/editor/intake/rules/new/", None, 200),
    Row("alert rule page", "get", "admin", lambda w, u: f"/editor/intake/rules/{w['rule'].pk}/", None, 200),
    Row(
        "create alert rule",
        "post",
        "admin",
        lambda w, u: "/editor/intake/rules/new/",
        lambda w: {
            "name": "Paging",
            "matchers": 'severity="page"',
            "component": w["alerting"].pk,
            "status": "major_outage",
            "position": 3,
            "enabled": "on",
        },
        302,
    ),
    Row(
        "delete alert rule",
        "post",
        "admin",
        lambda w, u: f"/editor/intake/rules/{w['rule'].pk}/delete/",
        {},
        302,
    ),
    Row(
        "retry delivery",
        "post",
        "responder",
        lambda w, u: f"/editor/deliveries/{w['delivery'].pk}/retry/",
        {},
        302,
    ),
    Row(
        "update deliveries",
        "get",
        "viewer",
        lambda w, u: f"/editor/updates/{w['delivery'].update_id}/deliveries/",
        None,
        200,
    ),
    Row(
        "retry update deliveries",
        "post",
        "responder",
        lambda w, u: f"/editor/updates/{w['delivery'].update_id}/deliveries/retry/",
        {},
        302,
    ),
    Row("probes page", "get", "admin", lambda w, u: "/editor/probes/", None, 200),
    Row("new probe form", "get", "admin", lambda w, u: "/editor/probes/new/", None, 200),
    Row("probe page", "get", "admin", lambda w, u: f"/editor/probes/{w['push'].pk}/", None, 200),
    Row(
        "new probe",
        "post",
        "admin",
        lambda w, u: "/editor/probes/new/",
        lambda w: {
            "name": "Errors",
            "kind": "http",
            "enabled": "on",
            "metric": w["spare_metric"].pk,
            "url": "http://93.184.216.34/errors",
            "config": "{}",
            **PROBE_TIMINGS,
        },
        302,
    ),
    Row(
        "edit probe",
        "post",
        "admin",
        lambda w, u: f"/editor/probes/{w['push'].pk}/",
        lambda w: {
            "name": "Queue lag",
            "kind": "push",
            "metric": w["push"].metric_id,
            "url": "",
            "config": "{}",
            **PROBE_TIMINGS,
            "interval": 120,
        },
        302,
    ),
    Row("api tokens page", "get", "viewer", lambda w, u: "/editor/tokens/", None, 200),
    Row("statuspage import page", "get", "admin", lambda w, u: "/editor/import/statuspage/", None, 200),
    Row(
        "save key figures",
        "post",
        "responder",
        lambda w, u: f"/editor/incidents/{w['incident'].pk}/postmortem/en/key-figures/",
        {
            "figures-TOTAL_FORMS": "1",
            "figures-INITIAL_FORMS": "0",
            "figures-MIN_NUM_FORMS": "0",
            "figures-MAX_NUM_FORMS": "20",
            "figures-0-label": "Peak delay",
            "figures-0-value": "1380",
            "figures-0-unit": "duration",
        },
        302,
    ),
    Row(
        "issue api token",
        "post",
        "viewer",
        lambda w, u: "/editor/tokens/new/",
        {"name": "ci", "scope": "read"},
        200,
    ),
    Row(
        "revoke api token",
        "post",
        "viewer",
        lambda w, u: f"/editor/tokens/{own_token(w, u)}/revoke/",
        {},
        302,
    ),
    Row("issue push token", "post", "admin", lambda w, u: f"/editor/probes/{w['push'].pk}/token/", {}, 200),
    Row(
        "rotate webhook secret",
        "post",
        "admin",
        lambda w, u: f"/editor/probes/{w['webhook'].pk}/secret/",
        {},
        200,
    ),
    Row("regions page", "get", "admin", lambda w, u: "/editor/regions/", None, 200),
    Row("new region form", "get", "admin", lambda w, u: "/editor/regions/new/", None, 200),
    Row("region page", "get", "admin", lambda w, u: f"/editor/regions/{w['region'].pk}/", None, 200),
    Row("add region", "post", "admin", lambda w, u: "/editor/regions/new/", {"name": "ap-south"}, 200),
    Row(
        "edit region",
        "post",
        "admin",
        lambda w, u: f"/editor/regions/{w['region'].pk}/",
        {"name": "eu-north", "reference_url": "https://example.com/ping"},
        302,
    ),
    Row("issue region key", "post", "admin", lambda w, u: f"/editor/regions/{w['region'].pk}/key/", {}, 200),
]

ADMIN_SITE_ROWS = [
    Row("admin index", "get", "viewer", lambda w, u: "/admin/", None, 200),
    *[
        Row(
            f"admin {model._meta.model_name}",
            "get",
            "superuser",
            lambda w, u, model=model: f"/admin/{model._meta.app_label}/{model._meta.model_name}/",
            None,
            200,
        )
        for model in django_admin.site._registry
    ],
    Row(
        "admin cannot delete an incident",
        "post",
        "superuser",
        lambda w, u: f"/admin/incidents/incident/{w['incident'].pk}/delete/",
        {"post": "yes"},
        403,
    ),
]


def _cases(rows, personas):
    return [
        pytest.param(row, name, id=f"{row.name}-{row.method}-{name}") for row in rows for name in personas
    ]


# --- the matrix ---


def send(client, method: str, target: str, data, *, json_body: bool):
    if method == "get":
        return client.get(target)
    if json_body:
        return getattr(client, method)(target, data, format="json")
    return getattr(client, method)(target, data or {})


def assert_allowed(response, row: Row) -> None:
    if row.allowed_status is not None:
        assert response.status_code == row.allowed_status, response.content[:1000]
    else:
        assert 200 <= response.status_code < 400, (response.status_code, response.content[:1000])


def contents_if_refused(refusal) -> dict[str, list] | None:
    """What a refused request must leave as it was (every row, audit trail included); an allowed
    one is not compared, so its rows are not read."""
    return None if refusal is None else database_rows()


def assert_refused_unchanged(response, refusal, contents_before) -> None:
    if isinstance(refusal, int):
        assert response.status_code == refusal, (response.status_code, response.content[:500])
    else:
        assert response.status_code == 302, (response.status_code, response.content[:500])
        assert response["Location"].startswith(refusal), response["Location"]
    contents = database_rows()
    assert {label: len(rows) for label, rows in contents.items()} == {
        label: len(rows) for label, rows in contents_before.items()
    }, "a refused request added or removed rows"
    assert contents == contents_before


def api_refusal(who: Persona, row: Row) -> int | None:
    """The status that refuses `who`, or None when it may."""
    if row.minimum == "intake":  # alert intake: an intake token and nothing else
        if who.token_scope != TokenScope.INTAKE:
            return 401 if who.token_scope is None else 403
        return None
    if row.minimum == "public":
        return None
    if who.token_scope == TokenScope.INTAKE:
        return 403
    if not who.logged_in and not who.token_scope:
        return 401
    if who.rank < RANK[row.minimum] or (row.method != "get" and not who.may_write):
        return 403
    return None


def editor_refusal(who: Persona, row: Row, login_page: str) -> int | str | None:
    if row.minimum == "public":
        return None
    if not who.logged_in:
        return login_page
    if who.rank < RANK[row.minimum]:
        return 403
    return None


class TestApi:
    @pytest.fixture
    def users(self, api_side):
        return api_side[0]

    @pytest.mark.parametrize(("row", "persona_name"), _cases(API_ROWS, API_PERSONAS))
    def test_api_matrix(
        self, api_world, client_for, users, row, persona_name, django_capture_on_commit_callbacks
    ):
        who = persona(persona_name)
        client = client_for(persona_name)
        target, data = row.path(api_world, users[who.holder]), row.data(api_world)
        refusal = api_refusal(who, row)
        contents_before = contents_if_refused(refusal)

        with django_capture_on_commit_callbacks(execute=True):
            response = send(client, row.method, target, data, json_body=True)

        if refusal is None:
            assert_allowed(response, row)
        else:
            assert_refused_unchanged(response, refusal, contents_before)
        assert_shows_nothing_hidden(response, who, api_world)
        if target.startswith("/api/v2/"):
            assert "Probe breach" not in response.content.decode()  # drafts stay off the public API

    def test_every_api_route_and_method_has_a_row(self, api_world, users):
        expected = set()
        for path, view_name, callback in routes(get_resolver().url_patterns):
            if not path.startswith("api/") or "format" in path:
                continue  # DRF's format suffixes (.json) repeat the route they extend
            expected |= {(view_name, method) for method in api_methods(callback)}

        have = covered(API_ROWS, [row.path(api_world, users["admin"]) for row in API_ROWS])
        have_views = {view_name for view_name, _method in have}

        missing = {
            (view, method) for view, method in expected if (view, method) not in have and method != "any"
        }
        missing |= {(view, "any") for view, method in expected if method == "any" and view not in have_views}
        assert missing == set(), "API routes without a row in the permission matrix"


class TestEditorAndAdmin:
    @pytest.fixture
    def users(self, editor_side):
        return editor_side[0]

    @pytest.mark.parametrize(("row", "persona_name"), _cases(EDITOR_ROWS, EDITOR_PERSONAS))
    def test_editor_matrix(
        self, editor_world, client_for, users, row, persona_name, django_capture_on_commit_callbacks
    ):
        who = persona(persona_name)
        client = client_for(persona_name, client_class=Client)
        target, data = row.path(editor_world, users[who.holder]), row.data(editor_world)
        refusal = editor_refusal(who, row, "/editor/login/?next=")
        contents_before = contents_if_refused(refusal)

        with django_capture_on_commit_callbacks(execute=True):
            response = send(client, row.method, target, data, json_body=False)

        if refusal is None:
            assert_allowed(response, row)
        else:
            assert_refused_unchanged(response, refusal, contents_before)
        # Admins edit probes in the editor, so only the pages of lesser roles are searched for secrets.
        if who.rank < RANK["admin"]:
            assert_shows_nothing_hidden(response, who, editor_world)

    @pytest.mark.parametrize(("row", "persona_name"), _cases(ADMIN_SITE_ROWS, ADMIN_SITE_PERSONAS))
    def test_admin_site_matrix(
        self, editor_world, client_for, users, row, persona_name, django_capture_on_commit_callbacks
    ):
        """The Django admin is a superuser's console: staff roles reach its index, and nothing in it."""
        who = persona(persona_name)
        client = client_for(persona_name, client_class=Client)
        target, data = row.path(editor_world, users[who.holder]), row.data(editor_world)
        refusal = editor_refusal(who, row, "/admin/login/?next=")
        if persona_name == "outsider":
            refusal = "/admin/login/?next="  # the admin asks an account without staff status to log in
        contents_before = contents_if_refused(refusal)

        with django_capture_on_commit_callbacks(execute=True):
            response = send(client, row.method, target, data, json_body=False)

        if refusal is None:
            assert_allowed(response, row)
        else:
            assert_refused_unchanged(response, refusal, contents_before)
        if who.rank < RANK["admin"]:
            assert_shows_nothing_hidden(response, who, editor_world)

    def test_every_editor_and_admin_screen_has_a_row(self, editor_world, users):
        expected = set()
        for path, view_name, _callback in routes(get_resolver().url_patterns):
            if path.startswith("editor/") and view_name:
                expected.add(view_name)
        rows = EDITOR_ROWS + ADMIN_SITE_ROWS
        have = {
            name for name, _method in covered(rows, [row.path(editor_world, users["admin"]) for row in rows])
        }

        assert expected - have == set(), "editor screens without a row in the permission matrix"
        assert {"admin:index", "admin:incidents_incident_changelist"} <= have


# --- every route has its rows ---


def routes(patterns, prefix="", namespace=""):
    """(path pattern, view name, callback) of every route under `patterns`."""
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            name = (
                f"{namespace}:{pattern.namespace}" if namespace and pattern.namespace else pattern.namespace
            )
            yield from routes(pattern.url_patterns, prefix + str(pattern.pattern), name or namespace)
        elif isinstance(pattern, URLPattern):
            view_name = f"{namespace}:{pattern.name}" if namespace else pattern.name
            yield prefix + str(pattern.pattern), view_name, pattern.callback


def api_methods(callback) -> set[str]:
    """The methods a viewset route answers; "any" for other views, which need a row of any method."""
    actions = getattr(callback, "actions", None)
    if actions is None:
        return {"any"}
    allowed = getattr(callback.cls, "http_method_names", actions)
    return {method for method in actions if method in allowed and method != "head"}  # HEAD is GET's


def covered(rows, world_paths) -> set[tuple[str, str]]:
    """(view name, method) of every row, by resolving the path it sends."""
    return {
        (resolve(path.split("?")[0]).view_name, row.method)
        for row, path in zip(rows, world_paths, strict=True)
    }
