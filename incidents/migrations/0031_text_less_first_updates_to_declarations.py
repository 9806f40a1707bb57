"""Moves text-less first updates' component changes to their declaration.

Its own migration: on PostgreSQL the rows it changes hold deferred foreign-key checks, and the
schema migration before it ends by creating indexes on the same table, which PostgreSQL refuses
in a transaction with pending trigger events."""

from django.db import migrations


def text_less_first_updates_to_declarations(apps, schema_editor):
    """A first update with no text that told nobody was written by a declaration without a
    text: its component changes become the declaration's, carried by the next written update."""
    IncidentUpdate = apps.get_model("incidents", "IncidentUpdate")
    ComponentChange = apps.get_model("incidents", "ComponentChange")
    for update in IncidentUpdate.objects.filter(statuspage_id="", deliveries__isnull=True).iterator():
        if any(str(text).strip() for text in (update.body or {}).values()):
            continue
        timeline = IncidentUpdate.objects.filter(incident_id=update.incident_id).order_by(
            "display_at", "created_at", "id"
        )
        if timeline.first().pk != update.pk:
            continue
        changes = ComponentChange.objects.filter(update=update)
        changes.update(update=None, declared_on_id=update.incident_id)
        update.delete()
        written = timeline.first()
        if written is not None:
            ComponentChange.objects.filter(declared_on_id=update.incident_id, update__isnull=True).exclude(
                component_id__in=ComponentChange.objects.filter(update=written).values("component_id")
            ).update(update=written)


class Migration(migrations.Migration):
    dependencies = [
        ("incidents", "0030_merge_held_by_and_declared_changes"),
    ]

    operations = [
        migrations.RunPython(text_less_first_updates_to_declarations, migrations.RunPython.noop),
    ]
