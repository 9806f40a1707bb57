"""Saving probes: the URL guard, timeouts and intervals within bounds, each kind's settings."""

import itertools

import pytest
from django.core.exceptions import ValidationError

from incidents.models import AuditEvent, Probe, ProbeKind
from incidents.services.probes import save_probe


@pytest.fixture
def build(make_metric, automatic_component):
    counter = itertools.count()

    def build(kind=ProbeKind.HTTP, url="http://127.0.0.1:8401/ok", **fields):
        metric = make_metric(automatic_component, slug=f"v{next(counter)}-{kind}")
        return Probe(name="p", kind=kind, metric=metric, url=url, **fields)

    return build


def error_of(probe) -> dict:
    with pytest.raises(ValidationError) as raised:
        save_probe(probe, actor=None)
    assert not Probe.objects.exists()
    return raised.value.message_dict


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("ftp://example.com/x", "Only http and https"),
        ("file:///etc/passwd", "Only http and https"),
        ("http://169.254.169.254/latest/meta-data/", "metadata"),
        ("http://metadata.google.internal/", "metadata"),
    ],
)
def test_urls_outside_http_and_metadata_addresses_are_refused(build, url, message):
    assert message in " ".join(error_of(build(url=url))["url"])


def test_loopback_and_link_local_are_refused_unless_private_targets_are_allowed(build, settings):
    settings.OUTBOUND_ALLOW_PRIVATE_TARGETS = False
    assert "OUTBOUND_ALLOW_PRIVATE_TARGETS" in " ".join(error_of(build(url="http://127.0.0.1/"))["url"])
    assert "Link-local" in " ".join(error_of(build(url="http://169.254.10.1/"))["url"])
    assert "OUTBOUND_ALLOW_PRIVATE_TARGETS" in " ".join(error_of(build(url="http://10.1.2.3/"))["url"])
    settings.OUTBOUND_ALLOW_PRIVATE_TARGETS = True
    assert save_probe(build(url="http://127.0.0.1:8401/"), actor=None).pk


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"interval": 0}, "interval"),
        ({"interval": 10**7}, "interval"),
        ({"timeout": 0}, "timeout"),
        ({"timeout": 1000}, "timeout"),
        ({"connect_timeout": -1}, "connect_timeout"),
        ({"read_timeout": 0.01}, "read_timeout"),
        ({"interval": 5, "timeout": 5}, "timeout"),
    ],
)
def test_timeouts_and_intervals_must_be_sane(build, fields, field):
    assert field in error_of(build(**fields))


@pytest.mark.parametrize(
    ("kind", "config", "message"),
    [
        (ProbeKind.HTTP, {"method": "DELETE"}, "GET, HEAD or POST"),
        (ProbeKind.HTTP, {"expected_status": [99]}, "Expected status codes"),
        (ProbeKind.HTTP, {"headers": {"X": "a\nb"}}, "Headers"),
        (ProbeKind.HTTP, {"colour": "red"}, "Unknown settings: colour"),
        (ProbeKind.SCRAPE, {}, "prometheus or json"),
        (ProbeKind.SCRAPE, {"format": "prometheus"}, "metric name"),
        (ProbeKind.SCRAPE, {"format": "json", "path": ""}, "path"),
        (ProbeKind.WEBHOOK, {"trigger_method": "DELETE"}, "trigger method"),
        (ProbeKind.UPSTREAM, {"component": 5}, "component"),
    ],
)
def test_each_kind_checks_its_own_settings(build, kind, config, message):
    assert message in " ".join(error_of(build(kind=kind, config=config))["config"])


def test_a_push_probe_has_no_url(build):
    assert "push probe has no URL" in " ".join(error_of(build(kind=ProbeKind.PUSH))["url"])


def test_saving_a_probe_is_audited_and_webhook_probes_get_a_secret(build, admin):
    probe = save_probe(build(kind=ProbeKind.WEBHOOK, config={"nonce_path": "data.nonce"}), actor=admin)
    assert len(probe.webhook_secret) == 64
    assert probe.next_run_at is not None
    event = AuditEvent.objects.get(action="probe.created")
    assert event.actor_label == "ada" and event.after["kind"] == "webhook"


def test_credential_headers_never_reach_the_audit_trail(admin, make_probe):
    from incidents.models import AuditEvent
    from incidents.services.probes import save_probe

    probe = make_probe(
        url="http://127.0.0.1:9/health",
        config={"headers": {"Authorization": "Bearer s3cr3t-value", "Accept": "application/json"}},
    )
    probe.config = {"headers": {"Authorization": "Bearer rotated-value", "Accept": "application/json"}}
    save_probe(probe, actor=admin)

    trail = str(list(AuditEvent.objects.filter(subject_type="probe").values("before", "after")))
    assert "s3cr3t-value" not in trail and "rotated-value" not in trail
    changed = AuditEvent.objects.get(subject_type="probe", action="probe.changed")
    before, after = changed.before["config"]["headers"], changed.after["config"]["headers"]
    assert after["Accept"] == before["Accept"] != "application/json"  # every header value is masked
    assert before["Authorization"] != after["Authorization"]  # the change itself is on record
