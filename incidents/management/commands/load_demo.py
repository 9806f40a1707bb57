"""Loads the demo status page (idempotent)."""

from django.core.management.base import BaseCommand

from incidents.demo.loader import load_demo


class Command(BaseCommand):
    help = "Create demo components, 90 days of metrics and past incidents with postmortems (idempotent)."

    def handle(self, *args, **options):
        created = load_demo()
        if any(created.values()):
            self.stdout.write(
                "Demo data loaded: {components} components, {metrics} metrics, {incidents} incidents and maintenance.".format(
                    **created
                )
            )
        else:
            self.stdout.write("Demo data already present; nothing changed.")
