"""A database written before declarations without a text stopped writing an update: the text-less
first update that told nobody leaves the timeline, and its component changes become the
declaration's, carried by the first written update."""

import datetime as dt

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from incidents.models import ComponentChange as ComponentChangeNow
from incidents.models import IncidentUpdate as IncidentUpdateNow

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("incidents", "0028_merge_0027_api_token_issuer_0027_subscriber_inbox_key")]
AFTER = [("incidents", "0031_text_less_first_updates_to_declarations")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def test_a_text_less_first_update_becomes_the_declaration_of_the_first_written_one():
    apps = migrate(BEFORE)
    Component = apps.get_model("incidents", "Component")
    Incident = apps.get_model("incidents", "Incident")
    IncidentUpdate = apps.get_model("incidents", "IncidentUpdate")
    ComponentChange = apps.get_model("incidents", "ComponentChange")
    start = dt.datetime(2018, 7, 13, 10, 0, tzinfo=dt.UTC)
    webhooks = Component.objects.create(slug="webhooks", name={"en": "Webhooks"}, position=1)
    incident = Incident.objects.create(
        slug="late", title={"es": "Retraso"}, started_at=start, backfilled=True
    )
    carrier = IncidentUpdate.objects.create(
        incident=incident, status="investigating", body={}, display_at=start
    )
    ComponentChange.objects.create(
        update=carrier, component=webhooks, old_status="operational", new_status="major_outage"
    )
    written = IncidentUpdate.objects.create(
        incident=incident,
        status="resolved",
        body={"es": "Resuelto."},
        display_at=start + dt.timedelta(hours=1),
    )
    try:
        apps = migrate(AFTER)
    finally:
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())

    assert list(IncidentUpdateNow.objects.filter(incident_id=incident.pk).values_list("pk", flat=True)) == [
        written.pk
    ]
    [change] = ComponentChangeNow.objects.filter(component_id=webhooks.pk)
    assert (change.update_id, change.declared_on_id, change.new_status) == (
        written.pk,
        incident.pk,
        "major_outage",
    )
