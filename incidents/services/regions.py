"""Probe regions: saving them, and their keys (which regions a probe runs in is read in
incidents.selectors.regions, re-exported here for the services)."""

import time

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import F

from incidents.models import ProbeRegion, Subject
from incidents.probes.sealing import region_key
from incidents.selectors.regions import active_regions, measuring_regions, regions_of

from .audit import record_changes, record_event

__all__ = [
    "active_regions",
    "forget_regions",
    "key_of",
    "measuring_regions",
    "region_named",
    "regions_of",
    "rotate_region_key",
    "save_region",
]

REGION_FIELDS = ("name", "active", "reference_url")


# Regions as last read, for REGION_READ_SECONDS: every result message names one, several a
# second. Saving or rotating here forgets them; a key rotated in another process is read again
# at the first message it refuses.
REGION_READ_SECONDS = 5.0
_read: dict[str, tuple[float, ProbeRegion | None]] = {}


def region_named(name: str) -> ProbeRegion | None:
    read_at, region = _read.get(name, (0.0, None))
    if time.monotonic() - read_at > REGION_READ_SECONDS:
        region = ProbeRegion.objects.filter(name=name).first()
        _read[name] = (time.monotonic(), region)
    return region


def forget_regions() -> None:
    _read.clear()


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
    forget_regions()
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
    forget_regions()
    record_event(
        actor=actor,
        action="probe_region.key_rotated",
        subject_type=Subject.PROBE_REGION,
        subject_id=region.pk,
        subject_label=str(region),
    )
    return key_of(region)
