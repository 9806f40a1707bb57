"""Probe regions: which regions a probe runs in, saving regions, and their keys."""

from collections import defaultdict

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import F

from incidents.models import Probe, ProbeRegion, Subject
from incidents.probes.sealing import region_key

from .audit import record_changes, record_event

REGION_FIELDS = ("name", "active", "reference_url")


def active_regions() -> list[ProbeRegion]:
    """The active regions; with none at all (a database from before regions), the home region."""
    regions = list(ProbeRegion.objects.filter(active=True))
    if not regions and not ProbeRegion.objects.exists():
        return [ProbeRegion(name=settings.PROBE_HOME_REGION)]
    return regions


def regions_of(probe_ids, *, active: list[ProbeRegion] | None = None) -> dict[int, list[ProbeRegion]]:
    """The active regions each probe runs in: those it was given, or every active one."""
    active = active_regions() if active is None else active
    by_id = {region.pk: region for region in active}
    chosen: dict[int, list[ProbeRegion]] = defaultdict(list)
    limited: set[int] = set()
    rows = Probe.regions.through.objects.filter(probe_id__in=probe_ids).values_list(
        "probe_id", "proberegion_id"
    )
    for probe_id, region_id in rows:
        limited.add(probe_id)
        if region_id in by_id:
            chosen[probe_id].append(by_id[region_id])
    return {pk: (chosen[pk] if pk in limited else list(active)) for pk in probe_ids}


def key_of(region: ProbeRegion) -> str:
    return region_key(region.name, region.key_generation)


def _fields(region: ProbeRegion) -> dict:
    return {name: getattr(region, name) for name in REGION_FIELDS}


@transaction.atomic
def save_region(region: ProbeRegion, *, actor: AbstractBaseUser | None) -> ProbeRegion:
    region.full_clean()
    creating = region.pk is None
    before = {} if creating else _fields(ProbeRegion.objects.get(pk=region.pk))
    region.save()
    record_changes(
        region,
        actor=actor,
        action="probe_region.created" if creating else "probe_region.changed",
        subject_type=Subject.PROBE_REGION,
        before=before,
        after=_fields(region),
    )
    return region


@transaction.atomic
def rotate_region_key(region: ProbeRegion, *, actor: AbstractBaseUser | None) -> str:
    """A new key for the region; results signed with the old one are refused from now on."""
    ProbeRegion.objects.filter(pk=region.pk).update(key_generation=F("key_generation") + 1)
    region.refresh_from_db()
    record_event(
        actor=actor,
        action="probe_region.key_rotated",
        subject_type=Subject.PROBE_REGION,
        subject_id=region.pk,
        subject_label=str(region),
    )
    return key_of(region)
