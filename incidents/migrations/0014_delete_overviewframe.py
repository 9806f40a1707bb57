from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("incidents", "0013_security_counters_and_token_expiry"),
    ]

    operations = [
        migrations.DeleteModel(name="OverviewFrame"),
    ]
