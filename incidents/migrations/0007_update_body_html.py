from django.db import migrations, models

from incidents.rendering import rendered_texts


def render_existing_bodies(apps, schema_editor):
    """Stores the HTML of every existing update, as the services now do when they write one."""
    IncidentUpdate = apps.get_model("incidents", "IncidentUpdate")
    batch = []
    for update in IncidentUpdate.objects.only("pk", "body").iterator(chunk_size=2000):
        update.body_html = rendered_texts(update.body or {})
        batch.append(update)
        if len(batch) == 2000:
            IncidentUpdate.objects.bulk_update(batch, ["body_html"])
            batch = []
    IncidentUpdate.objects.bulk_update(batch, ["body_html"])


class Migration(migrations.Migration):
    dependencies = [
        ("incidents", "0006_public_page_indexes"),
    ]

    operations = [
        migrations.AddField(
            model_name="incidentupdate",
            name="body_html",
            field=models.JSONField(blank=True, default=dict, editable=False),
        ),
        migrations.RunPython(render_existing_bodies, migrations.RunPython.noop),
    ]
