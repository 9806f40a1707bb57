"""The probe screens: who may use them, what they refuse, what they record and what they show once."""

import datetime as dt
import hashlib
import re

import pytest
from django.test import Client
from django.utils import timezone

from incidents.models import (
    AuditEvent,
    BreakerState,
    CircuitBreaker,
    Metric,
    Probe,
    ProbeKind,
    ProbeRun,
    RunState,
    Sample,
)
from incidents.services.probes import save_probe

from .conftest import logged_in

PERSONAS = ["anonymous", "outsider", "viewer", "responder", "admin"]
URL = "http://127.0.0.1:8150/health"


@pytest.fixture(autouse=True)
def _probe_settings(settings):
    # Targets on this machine's loopback; the address guard still refuses metadata addresses.
    settings.OUTBOUND_ALLOW_PRIVATE_TARGETS = True
    settings.PROBE_MIN_INTERVAL = 10
    settings.PROBE_MAX_INTERVAL = 86400


@pytest.fixture
def spare_metric(api):
    return Metric.objects.create(component=api, slug="errors", name={"en": "Errors"}, unit="%")


@pytest.fixture
def probe(metric):
    return save_probe(
        Probe(name="API health", kind=ProbeKind.HTTP, metric=metric, url=URL, interval=30, timeout=5),
        actor=None,
    )


@pytest.fixture
def push_probe(webhooks):
    lag = Metric.objects.create(component=webhooks, slug="lag", name={"en": "Lag"}, unit="s")
    return save_probe(Probe(name="Queue lag", kind=ProbeKind.PUSH, metric=lag), actor=None)


def _form(metric, **fields):
    data = {
        "name": "Checkout health",
        "kind": "http",
        "metric": metric.pk,
        "enabled": "on",
        "url": URL,
        "config": '{"method": "GET", "expected_status": [200]}',
        "interval": 60,
        "connect_timeout": 3,
        "read_timeout": 5,
        "timeout": 5,
    }
    data.update(fields)
    return data


def _snapshot():
    return (
        list(Probe.objects.order_by("pk").values()),
        AuditEvent.objects.count(),
    )


# (name, method, url(probe, push, spare), data(probe, push, spare), status for an admin)
ACTIONS = [
    ("probe list", "get", lambda p, q, m: "/editor/probes/", None, 200),
    ("new probe form", "get", lambda p, q, m: "/editor/probes/new/", None, 200),
    ("probe page", "get", lambda p, q, m: f"/editor/probes/{p.pk}/", None, 200),
    ("push probe page", "get", lambda p, q, m: f"/editor/probes/{q.pk}/", None, 200),
    ("create probe", "post", lambda p, q, m: "/editor/probes/new/", lambda p, q, m: _form(m), 302),
    (
        "edit probe",
        "post",
        lambda p, q, m: f"/editor/probes/{p.pk}/",
        lambda p, q, m: _form(p.metric, name="Renamed", interval=120),
        302,
    ),
    ("issue push token", "post", lambda p, q, m: f"/editor/probes/{q.pk}/token/", lambda p, q, m: {}, 200),
]


@pytest.mark.django_db
@pytest.mark.parametrize("persona", PERSONAS)
@pytest.mark.parametrize("action", ACTIONS, ids=[a[0] for a in ACTIONS])
def test_probe_screens_follow_the_admin_role(clients, persona, action, probe, push_probe, spare_metric):
    # Reads and writes are for admins, like the component and metric screens they sit beside.
    name, method, url, data, allowed_status = action
    target = url(probe, push_probe, spare_metric)
    before = _snapshot()
    client = clients[persona]
    if method == "get":
        response = client.get(target)
    else:
        response = client.post(target, data(probe, push_probe, spare_metric))
    if persona == "admin":
        assert response.status_code == allowed_status, response.content[:2000]
        return
    if persona == "anonymous":
        assert response.status_code == 302 and response["Location"].startswith("/editor/login/")
    else:
        assert response.status_code == 403
    assert _snapshot() == before, "a refused request changed something"


@pytest.mark.django_db
def test_probe_forms_need_the_csrf_token(admin, probe, spare_metric):
    client = Client(enforce_csrf_checks=True)
    client.force_login(admin)
    before = _snapshot()
    assert client.post("/editor/probes/new/", _form(spare_metric)).status_code == 403
    assert client.post(f"/editor/probes/{probe.pk}/", _form(probe.metric, name="X")).status_code == 403
    assert _snapshot() == before
    page = client.get(f"/editor/probes/{probe.pk}/")
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page.content)[1].decode()
    response = client.post(
        f"/editor/probes/{probe.pk}/",
        {**_form(probe.metric, name="With token"), "csrfmiddlewaretoken": token},
    )
    assert response.status_code == 302
    assert Probe.objects.get(pk=probe.pk).name == "With token"


BAD_INPUT = [
    ("unknown kind", {"kind": "ftp"}, "kind", "Select a valid choice"),
    (
        "metadata address",
        {"url": "http://169.254.169.254/latest/meta-data/"},
        "url",
        "Cloud metadata addresses are never allowed",
    ),
    ("interval too short", {"interval": 1}, "interval", "The interval must be between 10 and 86400 seconds"),
    (
        "interval too long",
        {"interval": 100000},
        "interval",
        "The interval must be between 10 and 86400 seconds",
    ),
    ("timeout too long", {"timeout": 600, "interval": 3600}, "timeout", "A timeout must be between 0.1 and"),
    ("timeout past the interval", {"timeout": 30, "interval": 20}, "timeout", "shorter than its interval"),
    ("one megabyte of settings", {"config": '{"x": "' + "a" * 1_048_576 + '"}'}, "config", "too long"),
    ("settings not JSON", {"config": "{method: GET"}, "config", "must be valid JSON"),
    ("settings nested too deeply", {"config": "[" * 16_000}, "config", "must be valid JSON"),
    ("settings not an object", {"config": "[1, 2]"}, "config", "must be a JSON object"),
    ("unknown setting", {"config": '{"verb": "GET"}'}, "config", "Unknown settings: verb"),
    ("bad method", {"config": '{"method": "DELETE"}'}, "config", "The method must be GET, HEAD or POST"),
    ("push probe with a URL", {"kind": "push"}, "url", "A push probe has no URL"),
]


@pytest.mark.django_db
@pytest.mark.parametrize("case", BAD_INPUT, ids=[c[0] for c in BAD_INPUT])
def test_bad_probe_input_is_a_form_error_that_keeps_what_was_typed(admin, spare_metric, case):
    _name, fields, field, message = case
    client = logged_in(admin)
    data = _form(spare_metric, name="Typed name 7b1", **fields)
    before = _snapshot()
    response = client.post("/editor/probes/new/", data)
    assert response.status_code == 200
    form = response.context["form"]
    assert any(message in error for error in form.errors.get(field, [])), form.errors
    page = response.content.decode()
    assert "Typed name 7b1" in page
    if field != "config" or "too long" not in message:
        assert str(fields.get("url", URL)) in page
    assert _snapshot() == before, "a refused probe was saved"


@pytest.mark.django_db
def test_link_local_targets_are_refused_without_the_private_switch(admin, spare_metric, settings):
    settings.OUTBOUND_ALLOW_PRIVATE_TARGETS = False
    response = logged_in(admin).post(
        "/editor/probes/new/", _form(spare_metric, url="http://169.254.10.1/health")
    )
    assert response.status_code == 200 and response.context["form"].errors["url"]
    assert not Probe.objects.exists()


@pytest.mark.django_db
def test_bad_input_on_an_existing_probe_changes_nothing(admin, probe):
    before = _snapshot()
    response = logged_in(admin).post(
        f"/editor/probes/{probe.pk}/", _form(probe.metric, name="Kept 51", url="http://169.254.169.254/")
    )
    assert response.status_code == 200 and "Kept 51" in response.content.decode()
    assert response.context["form"].errors["url"]
    assert _snapshot() == before


@pytest.mark.django_db
def test_a_metric_has_one_probe(admin, probe):
    response = logged_in(admin).post("/editor/probes/new/", _form(probe.metric, name="Second"))
    assert response.status_code == 200 and response.context["form"].errors["metric"]
    assert Probe.objects.count() == 1


@pytest.mark.django_db
def test_each_probe_change_is_audited_and_listed_on_the_overview(admin, probe, spare_metric):
    client = logged_in(admin)
    client.post("/editor/probes/new/", _form(spare_metric, name="Checkout health"))
    created = Probe.objects.get(name="Checkout health")
    client.post(
        f"/editor/probes/{probe.pk}/", _form(probe.metric, name="API health", interval=120, config="{}")
    )
    client.post(
        f"/editor/probes/{probe.pk}/", _form(probe.metric, name="API health", interval=120, config="{}")
    )  # no change
    events = AuditEvent.objects.filter(subject_type="probe", actor=admin).order_by("pk")
    assert [(e.action, e.subject_id) for e in events] == [
        ("probe.created", str(created.pk)),
        ("probe.changed", str(probe.pk)),
    ]
    assert events[1].before == {"interval": 30} and events[1].after == {"interval": 120}
    overview = client.get("/editor/").content.decode()
    assert "Probe Checkout health created, by ada" in overview
    assert "Probe API health changed, by ada" in overview
    probe_page = client.get(f"/editor/probes/{probe.pk}/").content.decode()
    assert "Probe API health changed" in probe_page and "Interval (seconds): 30 → 120" in probe_page


@pytest.mark.django_db
def test_a_push_token_is_shown_once_and_stored_hashed(admin, push_probe):
    client = logged_in(admin)
    response = client.post(f"/editor/probes/{push_probe.pk}/token/")
    assert response.status_code == 200
    token = re.search(r"data-push-token>([^<]+)<", response.content.decode())[1]
    assert "no-store" in response["Cache-Control"] or "no-cache" in response["Cache-Control"]
    push_probe.refresh_from_db()
    assert push_probe.push_token_hash == hashlib.sha256(token.encode()).hexdigest()
    assert token not in push_probe.push_token_hash
    assert not Probe.objects.filter(push_token_hash=token).exists()
    # Never again: not on the probe page, the list, the overview or the audit trail.
    for page in (f"/editor/probes/{push_probe.pk}/", "/editor/probes/", "/editor/", "/editor/audit/"):
        assert token not in client.get(page).content.decode()
    assert AuditEvent.objects.filter(action="probe.token_issued", subject_id=str(push_probe.pk)).count() == 1
    # The token works on the push endpoint; a second token replaces it.
    url = f"/probes/push/{push_probe.public_id}/"
    ok = Client().post(
        url, {"value": 3}, content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {token}"
    )
    assert ok.status_code in (200, 201, 202, 204)
    client.post(f"/editor/probes/{push_probe.pk}/token/")
    stale = Client().post(
        url, {"value": 3}, content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {token}"
    )
    assert stale.status_code == 403


@pytest.mark.django_db
def test_creating_a_push_probe_shows_its_first_token(admin, spare_metric):
    response = logged_in(admin).post(
        "/editor/probes/new/", _form(spare_metric, kind="push", url="", config="{}")
    )
    assert response.status_code == 200
    token = re.search(r"data-push-token>([^<]+)<", response.content.decode())[1]
    assert Probe.objects.get().push_token_matches(token)


@pytest.mark.django_db
def test_a_webhook_secret_is_shown_when_made_and_rotated_never_on_the_page(admin, spare_metric):
    client = logged_in(admin)
    response = client.post(
        "/editor/probes/new/",
        _form(spare_metric, kind="webhook", name="Hook", config='{"nonce_path": "nonce"}'),
    )
    assert response.status_code == 200, response.context and response.context["form"].errors
    probe = Probe.objects.get()
    secret = re.search(r"data-webhook-secret>([^<]+)<", response.content.decode())[1]
    assert secret == probe.webhook_secret
    assert secret not in client.get(f"/editor/probes/{probe.pk}/").content.decode()
    rotated = client.post(f"/editor/probes/{probe.pk}/secret/")
    new_secret = re.search(r"data-webhook-secret>([^<]+)<", rotated.content.decode())[1]
    probe.refresh_from_db()
    assert new_secret == probe.webhook_secret != secret
    assert AuditEvent.objects.filter(action="probe.secret_rotated").count() == 1
    assert secret not in str(list(AuditEvent.objects.values("before", "after")))


@pytest.mark.django_db
def test_token_and_secret_actions_are_posts_for_their_own_kind(admin, probe, push_probe):
    client = logged_in(admin)
    assert client.get(f"/editor/probes/{push_probe.pk}/token/").status_code == 405
    before = _snapshot()
    assert client.post(f"/editor/probes/{probe.pk}/token/").status_code == 302
    assert client.post(f"/editor/probes/{push_probe.pk}/secret/").status_code == 302
    assert _snapshot() == before


@pytest.mark.django_db
def test_the_list_shows_last_run_breaker_and_latest_value(admin, probe, metric):
    now = timezone.now()
    ProbeRun.objects.create(
        probe=probe,
        state=RunState.TIMEOUT,
        scheduled_at=now - dt.timedelta(seconds=30),
        deadline=now,
        abandon_after=now,
        started_at=now - dt.timedelta(seconds=30),
        finished_at=now - dt.timedelta(seconds=25),
        detail="read timed out after 5 s",
    )
    CircuitBreaker.objects.create(target="http://127.0.0.1:8150/health", state=BreakerState.OPEN)
    Metric.objects.filter(pk=metric.pk).update(latest_value=612, latest_at=now)
    Sample.objects.create(metric=metric, at=now, value=612)
    client = logged_in(admin)
    listing = client.get("/editor/probes/").content.decode()
    assert "API health" in listing and URL in listing
    assert "Timed out" in listing and "Open" in listing and "612" in listing
    detail = client.get(f"/editor/probes/{probe.pk}/").content.decode()
    assert "read timed out after 5 s" in detail and "5000 ms" in detail
    assert "612" in detail and "Degraded" in detail  # the sample against the metric's thresholds


@pytest.mark.django_db
def test_component_and_metric_screens_link_their_probes(admin, probe, spare_metric, api):
    client = logged_in(admin)
    for page in (
        "/editor/components/",
        f"/editor/components/{api.pk}/",
        f"/editor/metrics/{probe.metric.pk}/",
    ):
        assert f"/editor/probes/{probe.pk}/" in client.get(page).content.decode(), page
    metric_page = client.get(f"/editor/metrics/{spare_metric.pk}/").content.decode()
    assert f"/editor/probes/new/?metric={spare_metric.pk}" in metric_page
    form = client.get(f"/editor/probes/new/?metric={spare_metric.pk}").context["form"]
    assert str(form["metric"].value()) == str(spare_metric.pk)


@pytest.mark.django_db
def test_a_latest_value_reads_in_the_unit_a_person_reads_with_the_exact_value_in_its_title(admin, metric):
    Metric.objects.filter(pk=metric.pk).update(latest_value=12_500, latest_at=timezone.now())
    client = logged_in(admin)

    page = client.get(f"/editor/components/{metric.component.pk}/").content.decode()

    assert '<span title="12,500\u00a0ms">12.5\u00a0sec</span>' in page  # not "12500 ms"
