"""config export: one YAML file, the same bytes each time, credentials as references only; applied
to an empty database it gives the same configuration back."""

import io

import pytest
from django.core.management import call_command

from incidents.models import (
    AlertRule,
    AuditEvent,
    Component,
    ComponentGroup,
    Metric,
    Probe,
    ProbeRegion,
    UpdateTemplate,
)
from incidents.services.probes import save_probe

# Per model: the natural key, and what is state rather than configuration.
CONFIGURATION_ROWS = {
    ComponentGroup: (("slug",), {"id", "public_id", "created_at", "updated_at"}),
    Component: (
        ("slug",),
        {"id", "public_id", "created_at", "updated_at", "status", "status_changed_at", "group"},
    ),
    Metric: (
        ("component__slug", "slug"),
        {"id", "created_at", "updated_at", "latest_value", "latest_at", "component"},
    ),
    Probe: (
        ("metric__component__slug", "metric__slug"),
        {
            "id",
            "public_id",
            "created_at",
            "updated_at",
            "next_run_at",
            "push_token_hash",
            "webhook_secret",
            "metric",
        },
    ),
    ProbeRegion: (("name",), {"id", "created_at", "key_generation"}),
    UpdateTemplate: (("language", "kind", "name"), {"id", "created_at", "updated_at", "version"}),
    AlertRule: (("name",), {"id", "public_id", "created_at", "updated_at", "component"}),
}
RELATED_KEYS = {Component: ["group__slug"], AlertRule: ["component__slug"], Probe: []}


def configuration_rows() -> dict:
    """Every configuration row, field by field, by natural key (ids, state and secrets aside)."""
    rows = {}
    for model, (key, state) in CONFIGURATION_ROWS.items():
        fields = [f.name for f in model._meta.concrete_fields if f.name not in state]
        fields += RELATED_KEYS.get(model, [])
        found = {}
        for values in model.objects.values(*fields, *key):
            found[tuple(values[k] for k in key)] = {name: values[name] for name in fields}
        rows[model.__name__] = found
    rows["probe regions"] = {
        (p.metric.component.slug, p.metric.slug): sorted(r.name for r in p.regions.all())
        for p in Probe.objects.all()
    }
    return rows


def export_text() -> str:
    out = io.StringIO()
    call_command("config", "export", stdout=out)
    return out.getvalue()


# A transaction of its own: PostgreSQL flushes no table with constraint checks still pending.
@pytest.mark.django_db(transaction=True)
def test_the_demo_exported_and_applied_to_an_empty_database_is_the_same_configuration(
    tmp_path, public_dns, monkeypatch
):
    call_command("load_demo")
    before = configuration_rows()
    path = tmp_path / "demo.yaml"
    call_command("config", "export", "--output", str(path))
    text = path.read_text(encoding="utf-8")
    assert export_text() == text, "a second export gives the same bytes"

    call_command("flush", interactive=False, verbosity=0)
    assert not Component.objects.exists() and not ProbeRegion.objects.exists()
    out = io.StringIO()
    call_command("config", "apply", str(path), stdout=out)

    assert configuration_rows() == before
    assert export_text() == text
    push_probes = Probe.objects.filter(kind="push")
    assert push_probes.exists() and all(probe.push_token_hash for probe in push_probes)
    assert out.getvalue().count("push token of probe") == push_probes.count()


@pytest.mark.django_db
def test_an_export_is_sorted_by_slug_and_names_objects_never_by_id(latency_metric, make_component):
    make_component("zeta")
    make_component("alpha")

    text = export_text()

    assert text.index("slug: alpha") < text.index("slug: webhooks") < text.index("slug: zeta")
    assert "component: webhooks" in text and "group: core" in text
    assert f"id: {latency_metric.pk}" not in text and "public_id" not in text


@pytest.mark.django_db
def test_credentials_are_exported_as_references_to_variables_and_never_as_values(
    latency_metric, admin, monkeypatch
):
    save_probe(
        Probe(
            name="Delay",
            kind="http",
            metric=latency_metric,
            url="http://93.184.216.34/health?key=url-secret-1",
            config={"headers": {"Authorization": "Bearer header-secret-2", "Accept": "text/plain"}},
            interval=60,
        ),
        actor=admin,
    )
    AuditEvent.objects.all().delete()

    text = export_text()

    assert "secret-1" not in text and "secret-2" not in text
    assert "env: PROBE_WEBHOOKS_DELAY_URL" in text
    assert "env: PROBE_WEBHOOKS_DELAY_CONFIG_HEADERS_AUTHORIZATION" in text
    assert "env: PROBE_WEBHOOKS_DELAY_CONFIG_HEADERS_ACCEPT" in text  # every header value is write-only
