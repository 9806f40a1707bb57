"""config diff and apply: the changes in words, made once in one transaction and audited once;
what the file does not list is kept unless pruned, and history is never pruned."""

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import translation

from incidents.editor.audit_text import describe
from incidents.models import AuditEvent, Component, Metric, Probe, Subject
from incidents.services.metrics import record_sample
from tests.config.conftest import exported
from tests.conftest import database_rows


def run(*args) -> list[str]:
    out = io.StringIO()
    call_command("config", *args, stdout=out)
    return out.getvalue().splitlines()


@pytest.fixture
def edited(latency_metric, config_file):
    """The exported configuration with a renamed component, a new push probe and a threshold removed."""
    document = exported()
    document["components"][0]["name"]["en"] = "Public webhooks"
    document["metrics"][0]["thresholds"]["major_outage"] = None
    document["probes"] = [{"metric": "webhooks/delay", "name": "delay-push", "kind": "push"}]
    return config_file(document)


@pytest.mark.django_db
def test_diff_says_each_change_in_words_and_writes_nothing(edited):
    before = database_rows()

    lines = run("diff", edited)

    assert lines == [
        'component "webhooks": name.en "Webhook delivery" → "Public webhooks"',
        'threshold major_outage of metric "webhooks/delay" removed (was 900.0)',
        'probe "webhooks/delay" added',
        "3 changes would be applied",
    ]
    assert database_rows() == before


@pytest.mark.django_db
def test_applying_makes_the_changes_once_and_audits_them_in_words(edited, admin):
    AuditEvent.objects.all().delete()

    lines = run("apply", edited)

    assert Component.objects.get(slug="webhooks").name["en"] == "Public webhooks"
    assert Metric.objects.get(slug="delay").major_outage_threshold is None
    probe = Probe.objects.get(name="delay-push")
    assert probe.push_token_hash and any(
        line.startswith('push token of probe "webhooks/delay"') for line in lines
    )
    event = AuditEvent.objects.get(action="configuration.applied")
    assert event.subject_type == Subject.CONFIGURATION
    line = describe(event, "en")
    assert line.sentence == "Configuration applied"
    # The editor says it as it says any other change: labels and values in words.
    assert line.details == [
        'Component "webhooks": Name (English): Webhook delivery → Public webhooks',
        'Metric "webhooks/delay": Major outage at: 900 → —',
        'probe "webhooks/delay" added',
    ]
    with translation.override("nb"):
        assert (
            describe(event, "nb").details[0]
            == 'Komponent "webhooks": Navn (engelsk): Webhook delivery → Public webhooks'
        )

    rows = database_rows()
    assert run("apply", edited) == ["no changes"]
    assert database_rows() == rows, "the second apply writes nothing, not even an audit event"


@pytest.mark.django_db
def test_what_the_file_does_not_list_is_kept_unless_pruned(latency_metric, make_component, config_file):
    document = exported()
    make_component("legacy")
    path = config_file(document)

    assert run("diff", path) == ['component "legacy" is not in the file, kept', "no changes"]
    assert run("apply", path) == ['component "legacy" is not in the file, kept', "no changes"]
    assert Component.objects.filter(slug="legacy").exists()

    assert run("apply", "--prune", path)[0] == 'component "legacy" removed'
    assert not Component.objects.filter(slug="legacy").exists()


@pytest.mark.django_db
def test_pruning_refuses_a_component_with_history_and_changes_nothing(latency_metric, config_file):
    record_sample(latency_metric, value=12.0)
    document = exported()
    document["components"], document["metrics"], document["alert_rules"] = [], [], []
    path = config_file(document)
    before = database_rows()
    errors = io.StringIO()

    with pytest.raises(CommandError, match="nothing was changed"):
        call_command("config", "apply", "--prune", path, stderr=errors)

    assert 'component "webhooks" has history (samples: 1) and is not removed' in errors.getvalue()
    assert 'metric "webhooks/delay" has history (samples: 1)' in errors.getvalue()
    assert database_rows() == before


@pytest.mark.django_db
def test_a_changed_credential_is_said_without_its_values(latency_metric, config_file, monkeypatch):
    monkeypatch.setenv("DELAY_TOKEN", "Bearer first-secret")
    document = exported()
    document["probes"] = [
        {
            "metric": "webhooks/delay",
            "name": "Delay",
            "kind": "http",
            "url": "http://93.184.216.34/health",
            "config": {"headers": {"Authorization": {"env": "DELAY_TOKEN"}}},
        }
    ]
    path = config_file(document)
    run("apply", path)
    assert Probe.objects.get().config["headers"]["Authorization"] == "Bearer first-secret"

    monkeypatch.setenv("DELAY_TOKEN", "Bearer second-secret")
    lines = run("diff", path)

    assert (
        lines[0] == 'probe "webhooks/delay": config.headers.Authorization changed (a credential, not shown)'
    )
    assert "secret" not in " ".join(lines).replace("(a credential, not shown)", "")
    run("apply", path)
    assert "second-secret" not in str(list(AuditEvent.objects.values("before", "after")))
