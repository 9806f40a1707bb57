"""Probes and their runs through /api/v1/: kind-specific validation, secrets shown once, audit."""

import datetime as dt
import hashlib
import json

import pytest

from incidents.models import AuditEvent, Metric, Probe, ProbeRun, Sample

SECRET_KEYS = {"push_token_hash", "webhook_secret", "token", "secret", "nonce"}


@pytest.fixture
def writer(client_as):
    return client_as("write_token")


def new_probe(probes, **fields):
    return {
        "name": "Errors",
        "kind": "http",
        "metric": probes["spare_metric"].pk,
        "url": "http://93.184.216.34/errors",
        "interval": 30,
        "timeout": 5,
        **fields,
    }


def test_creating_a_probe_validates_it_schedules_it_and_records_it(probes, writer, admin):
    body = new_probe(probes, config={"method": "HEAD", "expected_status": [200, 204]})

    response = writer.post("/api/v1/probes/", body, format="json")

    assert response.status_code == 201, response.content
    created = Probe.objects.get(public_id=response.json()["id"])
    assert (created.kind, created.config["method"], created.metric) == (
        "http",
        "HEAD",
        probes["spare_metric"],
    )
    assert created.next_run_at is not None
    assert response.json()["receiver_url"] is None
    event = AuditEvent.objects.get(action="probe.created", subject_id=str(created.pk))
    assert event.actor == admin


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"kind": "ping"}, "kind"),
        ({"url": "http://169.254.169.254/latest/meta-data/"}, "url"),
        ({"url": "http://metadata.google.internal/computeMetadata/v1/"}, "url"),
        ({"url": "http://127.0.0.1:8080/health"}, "url"),
        ({"url": "ftp://93.184.216.34/file"}, "url"),
        ({"url": "http://["}, "url"),
        ({"url": ""}, "url"),
        ({"kind": "push", "url": "http://93.184.216.34/"}, "url"),
        ({"config": {"method": "DELETE"}}, "config"),
        ({"config": {"colour": "red"}}, "config"),
        ({"config": ["GET"]}, "config"),
        ({"kind": "scrape", "config": {"format": "xml"}}, "config"),
        ({"interval": 1}, "interval"),
        ({"interval": 10**9}, "interval"),
        ({"timeout": 30, "interval": 20}, "timeout"),
        ({"timeout": 0}, "timeout"),
        ({"metric": 10**12}, "metric"),
    ],
)
def test_bad_probes_are_field_errors_and_nothing_is_stored(probes, writer, fields, field):
    count = Probe.objects.count()

    response = writer.post("/api/v1/probes/", new_probe(probes, **fields), format="json")

    assert response.status_code == 400, response.content
    assert field in response.json(), response.json()
    assert all(isinstance(m, list) and m for m in response.json().values())
    assert Probe.objects.count() == count


def test_a_metric_measured_by_another_probe_is_refused(probes, writer):
    response = writer.post(
        "/api/v1/probes/", new_probe(probes, metric=probes["http"].metric.pk), format="json"
    )

    assert response.status_code == 400
    assert "metric" in response.json()


@pytest.mark.parametrize(
    "raw",
    [
        b'{"name": "x", "kind": "http", "interval": NaN}',
        b'{"name": "x", "kind": "http", "timeout": Infinity}',
        b"{",
        b"[]",
        b'{"name": "\\u0000"}',
    ],
)
def test_malformed_probe_bodies_are_a_400(probes, writer, raw):
    response = writer.generic("POST", "/api/v1/probes/", raw, content_type="application/json")

    assert response.status_code == 400
    assert isinstance(response.json(), dict)


def test_nan_in_a_form_body_is_refused(probes, writer):
    body = {**new_probe(probes), "timeout": "nan", "interval": "NaN"}

    response = writer.post("/api/v1/probes/", body)  # multipart

    assert response.status_code == 400
    assert {"timeout", "interval"} <= set(response.json())


def test_a_1_mb_probe_body_is_refused_with_413(probes, writer):
    body = json.dumps(new_probe(probes, config={"body_contains": "x" * (1024 * 1024)}))

    response = writer.generic("POST", "/api/v1/probes/", body, content_type="application/json")

    assert response.status_code == 413
    assert not Probe.objects.filter(name="Errors").exists()


def test_editing_a_probe_revalidates_the_merged_probe(probes, writer):
    url = f"/api/v1/probes/{probes['http'].public_id}/"

    bad = writer.patch(url, {"kind": "push"}, format="json")  # a push probe has no URL
    good = writer.patch(url, {"interval": 300, "config": {"body_contains": "ok"}}, format="json")

    assert bad.status_code == 400 and "url" in bad.json()
    assert good.status_code == 200
    stored = Probe.objects.get(pk=probes["http"].pk)
    assert (stored.kind, stored.interval, stored.config) == ("http", 300, {"body_contains": "ok"})
    event = AuditEvent.objects.filter(action="probe.changed").latest("id")
    assert event.before == {"interval": 60, "config": {}} and event.after["interval"] == 300


def test_a_stale_if_match_on_a_probe_is_refused(probes, writer):
    url = f"/api/v1/probes/{probes['http'].public_id}/"
    etag = writer.get(url)["ETag"]
    writer.patch(url, {"interval": 90}, format="json")

    response = writer.patch(url, {"interval": 120}, format="json", HTTP_IF_MATCH=etag)

    assert response.status_code == 412
    assert Probe.objects.get(pk=probes["http"].pk).interval == 90


def test_probe_responses_never_contain_secrets(probes, writer):
    listing = writer.get("/api/v1/probes/").json()["results"]
    detail = writer.get(f"/api/v1/probes/{probes['webhook'].public_id}/").json()

    for row in [*listing, detail]:
        assert not SECRET_KEYS & set(row)
    assert probes["webhook"].webhook_secret not in json.dumps([listing, detail])


def test_a_push_token_is_shown_once_stored_hashed_and_works(probes, writer, api):
    push = probes["push"]

    issued = writer.post(f"/api/v1/probes/{push.public_id}/push-token/")

    assert issued.status_code == 201
    token = issued.json()["token"]
    assert issued.json()["push_url"].endswith(f"/probes/push/{push.public_id}/")
    assert Probe.objects.get(pk=push.pk).push_token_hash == hashlib.sha256(token.encode()).hexdigest()
    shown = writer.get(f"/api/v1/probes/{push.public_id}/").json()
    assert shown["has_push_token"] is True and token not in json.dumps(shown)
    pushed = api.post(
        f"/probes/push/{push.public_id}/",
        {"value": 12.5},
        format="json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )
    assert pushed.status_code == 202
    assert Sample.objects.filter(metric=push.metric, value=12.5).exists()


def test_a_new_push_token_replaces_the_old_one(probes, writer, api):
    url = f"/api/v1/probes/{probes['push'].public_id}/push-token/"
    old = writer.post(url).json()["token"]
    writer.post(url)

    pushed = api.post(
        f"/probes/push/{probes['push'].public_id}/",
        {"value": 1},
        format="json",
        HTTP_AUTHORIZATION=f"Bearer {old}",
    )

    assert pushed.status_code == 403


def test_only_push_probes_get_push_tokens_and_only_webhook_probes_secrets(probes, writer):
    token = writer.post(f"/api/v1/probes/{probes['http'].public_id}/push-token/")
    secret = writer.post(f"/api/v1/probes/{probes['push'].public_id}/webhook-secret/")

    assert (token.status_code, secret.status_code) == (400, 400)
    assert "kind" in token.json() and "kind" in secret.json()
    assert Probe.objects.get(pk=probes["http"].pk).push_token_hash == ""


def test_a_webhook_secret_is_shown_once_and_replaces_the_old_one(probes, writer):
    webhook = probes["webhook"]

    issued = writer.post(f"/api/v1/probes/{webhook.public_id}/webhook-secret/")

    assert issued.status_code == 201
    secret = issued.json()["secret"]
    assert secret != webhook.webhook_secret
    assert Probe.objects.get(pk=webhook.pk).webhook_secret == secret
    assert AuditEvent.objects.filter(action="probe.secret_rotated", subject_id=str(webhook.pk)).exists()
    trail = AuditEvent.objects.filter(subject_type="probe").values("before", "after")
    assert secret not in json.dumps(list(trail))


def test_deleting_a_probe_removes_its_runs_and_keeps_its_metric(probes, writer):
    http = probes["http"]
    run_at = dt.datetime.now(dt.UTC)
    ProbeRun.objects.create(probe=http, scheduled_at=run_at, deadline=run_at, abandon_after=run_at)

    response = writer.delete(f"/api/v1/probes/{http.public_id}/")

    assert response.status_code == 204
    assert not Probe.objects.filter(pk=http.pk).exists()
    assert not ProbeRun.objects.filter(probe_id=http.pk).exists()
    assert Metric.objects.filter(pk=http.metric_id).exists()
    assert AuditEvent.objects.get(action="probe.deleted").before["url"] == "http://93.184.216.34/health"


def test_probes_are_filtered_by_kind_enabled_and_component(probes, writer, page):
    def names(query):
        return sorted(row["name"] for row in writer.get(f"/api/v1/probes/?{query}").json()["results"])

    Probe.objects.filter(pk=probes["push"].pk).update(enabled=False)

    assert names("kind=push") == ["Queue lag"]
    assert names("enabled=false") == ["Queue lag"]
    assert names("component=webhooks") == ["Webhook round-trip"]
    assert names(f"component={page['rest'].public_id}&enabled=true") == ["API health"]
    assert writer.get("/api/v1/probes/?kind=ping").status_code == 400


@pytest.fixture
def runs(probes):
    base = dt.datetime(2026, 3, 1, 12, tzinfo=dt.UTC)
    made = []
    for minutes, probe, state in [
        (0, "http", "ok"),
        (1, "http", "timeout"),
        (2, "webhook", "ok"),
        (3, "http", "ok"),
    ]:
        at = base + dt.timedelta(minutes=minutes)
        made.append(
            ProbeRun.objects.create(
                probe=probes[probe],
                state=state,
                scheduled_at=at,
                deadline=at,
                abandon_after=at,
                nonce=f"nonce-{minutes}",
                value=10.0 + minutes,
            )
        )
    return made


def test_probe_runs_are_listed_newest_first_with_filters(runs, probes, writer):
    def ids(query=""):
        response = writer.get(f"/api/v1/probe-runs/?{query}")
        assert response.status_code == 200, response.content
        return [row["id"] for row in response.json()["results"]]

    http = probes["http"].public_id
    assert ids() == [runs[3].pk, runs[2].pk, runs[1].pk, runs[0].pk]
    assert ids(f"probe={http}") == [runs[3].pk, runs[1].pk, runs[0].pk]
    assert ids(f"probe={http}&state=ok") == [runs[3].pk, runs[0].pk]
    assert ids("after=2026-03-01T12:01:00Z&before=2026-03-01T12:03:00Z") == [runs[2].pk, runs[1].pk]
    assert ids("probe=nosuchprobe") == []


def test_probe_runs_show_no_nonce_and_refuse_bad_filters(runs, writer):
    row = writer.get(f"/api/v1/probe-runs/{runs[0].pk}/").json()

    assert row["probe"] and row["state"] == "ok" and "nonce" not in row
    assert writer.get("/api/v1/probe-runs/?state=fine").status_code == 400
    assert writer.get("/api/v1/probe-runs/?after=yesterday").status_code == 400
    assert writer.post("/api/v1/probe-runs/", {}, format="json").status_code == 405


def test_nul_characters_in_the_settings_are_refused(probes, writer):
    response = writer.post(
        "/api/v1/probes/", new_probe(probes, config={"body_contains": "o\u0000k"}), format="json"
    )

    assert response.status_code == 400 and "config" in response.json()


def test_a_deeply_nested_body_is_a_400(probes, writer):
    raw = b"[" * 100_000 + b"]" * 100_000

    response = writer.generic("POST", "/api/v1/probes/", raw, content_type="application/json")

    assert response.status_code == 400
    assert not Probe.objects.filter(name="Errors").exists()
