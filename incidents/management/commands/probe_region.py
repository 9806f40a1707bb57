"""Probe regions from the command line, for scripted setups: add one, print its key, list them.

The key alone goes to standard output (KEY=$(manage.py probe_region key eu-north)); how to start
the region's worker goes to standard error."""

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from incidents.editor.region_worker import worker_command
from incidents.models import ProbeRegion
from incidents.services.regions import key_of, rotate_region_key, save_region


class Command(BaseCommand):
    help = "Add a probe region, print a region's key (--rotate for a new one), or list the regions."

    def add_arguments(self, parser):
        parser.add_argument("action", choices=["add", "key", "list"])
        parser.add_argument("name", nargs="?", default="")
        parser.add_argument(
            "--reference-url", default="", help="A URL the region's workers fetch to tell a region cut off."
        )
        parser.add_argument("--inactive", action="store_true", help="add: send the region no runs yet.")
        parser.add_argument(
            "--rotate", action="store_true", help="key: issue a new key; the old one stops working."
        )

    def handle(self, *args, action, name, reference_url, inactive, rotate, **options):
        if action == "list":
            self._list()
            return
        if not name:
            raise CommandError(f"probe_region {action} needs a region name.")
        if action == "add":
            region = self._add(name, reference_url=reference_url, active=not inactive)
            key = key_of(region)
        else:
            region = ProbeRegion.objects.filter(name=name).first()
            if region is None:
                raise CommandError(f"No region named {name!r} (probe_region add {name} adds it).")
            if region.is_home:
                raise CommandError(f"{name} is the home region: its workers use the database, not a key.")
            key = rotate_region_key(region, actor=None) if rotate else key_of(region)
        self.stdout.write(key)
        if not region.is_home:
            self.stderr.write(f"Start the region's worker with:\n  {worker_command(region, key)}")

    def _add(self, name: str, *, reference_url: str, active: bool) -> ProbeRegion:
        if ProbeRegion.objects.filter(name=name).exists():
            raise CommandError(f"A region named {name!r} exists (probe_region key {name} prints its key).")
        try:
            return save_region(ProbeRegion(name=name, reference_url=reference_url, active=active), actor=None)
        except ValidationError as error:
            raise CommandError("; ".join(error.messages)) from None

    def _list(self) -> None:
        for region in ProbeRegion.objects.all():
            state = "active" if region.active else "inactive"
            home = " (home)" if region.is_home else ""
            check = f" check {region.reference_url}" if region.reference_url else ""
            self.stdout.write(f"{region.name}{home}\t{state}\tqueue {region.queue}{check}")
