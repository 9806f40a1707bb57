import django.db.models
from django.db import migrations

import incidents.translation


def texts_per_language(apps, schema_editor):
    UpdateTemplate = apps.get_model("incidents", "UpdateTemplate")
    for template in UpdateTemplate.objects.all():
        template.body_texts = {template.language: template.body}
        template.save(update_fields=["body_texts"])


def one_text(apps, schema_editor):
    UpdateTemplate = apps.get_model("incidents", "UpdateTemplate")
    for template in UpdateTemplate.objects.all():
        template.body = template.body_texts.get(template.language, "")
        template.save(update_fields=["body"])


class Migration(migrations.Migration):
    dependencies = [
        ("incidents", "0021_merge_key_figures_and_imported_samples"),
    ]

    operations = [
        migrations.AddField(
            model_name="updatetemplate",
            name="title",
            field=incidents.translation.TranslatedField(),
        ),
        migrations.AddField(
            model_name="updatetemplate",
            name="component_statuses",
            field=django.db.models.JSONField(blank=True, default=dict),
        ),
        migrations.AddField(
            model_name="updatetemplate",
            name="body_texts",
            field=incidents.translation.TranslatedField(),
        ),
        migrations.RunPython(texts_per_language, one_text),
        migrations.RemoveField(model_name="updatetemplate", name="body"),
        migrations.RenameField(model_name="updatetemplate", old_name="body_texts", new_name="body"),
    ]
