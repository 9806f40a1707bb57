"""Importing a Statuspage export as records of the past (`manage.py import_statuspage`).

Every incident is entered as a record (`backfilled`): nobody is notified and current component
status stays as it is; a resolved record's component impact is laid over its own days. Rows are
written in bulk, a batch per transaction, after the whole document has been checked
(statuspage_parsing), so bad input writes nothing. Incidents and updates keep their Statuspage
ids (`statuspage_id`, and `public_id` when it is free), so a second run finds them and creates
nothing; components are matched by name ("Group - Component" too) and created when missing.
"""

import re
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify

from incidents.lifecycle.records import write_records_impact
from incidents.lifecycle.slugs import incident_slug
from incidents.models import (
    AuditEvent,
    Component,
    ComponentChange,
    Incident,
    IncidentUpdate,
    Postmortem,
    PostmortemState,
    Subject,
)
from incidents.public.versions import content_changed
from incidents.rendering import rendered_texts
from incidents.translation import validate_language

from .audit import actor_label
from .component_limits import check_import_creates, check_room_for_components
from .statuspage_parsing import Export, ImportedIncident, ImportRefused

BATCH_SIZE = 500
PUBLIC_ID = re.compile(r"^[a-z0-9]{1,12}$")


@dataclass(frozen=True)
class ImportResult:
    incidents: int
    updates: int
    components: int
    skipped: int


def import_export(export: Export, *, language: str) -> ImportResult:
    """Writes the incidents of `export` not imported before; returns what it created."""
    validate_language(language)
    known = set(
        Incident.objects.filter(statuspage_id__in=[i.statuspage_id for i in export.incidents]).values_list(
            "statuspage_id", flat=True
        )
    )
    fresh = [incident for incident in export.incidents if incident.statuspage_id not in known]
    components = components_by_name(export, fresh, language=language)
    created_components = sum(1 for component in components.values() if component.created)
    incidents = updates = 0
    for start in range(0, len(fresh), BATCH_SIZE):
        batch = fresh[start : start + BATCH_SIZE]
        with transaction.atomic():
            incidents_written, updates_written = _write_batch(batch, components, language=language)
        incidents += incidents_written
        updates += updates_written
    if incidents or created_components:
        content_changed()
    return ImportResult(
        incidents=incidents, updates=updates, components=created_components, skipped=len(known)
    )


@dataclass
class MatchedComponent:
    component: Component
    created: bool = False


def _names_of(component: Component) -> set[str]:
    names = {text.strip().casefold() for text in component.name.values() if text.strip()}
    if component.group_id:
        names |= {
            f"{group_name.strip()} - {name}".casefold()
            for group_name in component.group.name.values()
            for name in component.name.values()
        }
    return names


def components_by_name(export: Export, incidents: list[ImportedIncident], *, language: str):
    """Every component named in the export, by folded name, created (operational) when missing.

    Refuses (ImportRefused, nothing created) an export that would create more components than
    one import may, or than the page may hold."""
    matched: dict[str, MatchedComponent] = {}
    for component in Component.objects.select_related("group"):
        for name in _names_of(component):
            matched.setdefault(name, MatchedComponent(component))
    wanted = list(export.component_names)
    for incident in incidents:
        wanted += incident.component_names
        wanted += [change.name for update in incident.updates for change in update.affected]
    creating = _new_names(wanted, set(matched))
    try:
        check_import_creates(creating=creating)
        if creating:
            check_room_for_components(adding=creating)
    except ValidationError as error:
        raise ImportRefused(" ".join(error.messages)) from None
    with transaction.atomic():
        for name in wanted:
            key = name.casefold()
            if key in matched:
                continue
            bare = _bare(name)
            if bare.casefold() not in matched:
                matched[bare.casefold()] = MatchedComponent(_new_component(bare, language=language), True)
            matched[key] = matched[bare.casefold()]
    return matched


def _bare(name: str) -> str:
    """ "Group - Component" names the component "Component"."""
    return name.split(" - ", 1)[1] if " - " in name else name


def _new_names(wanted: list[str], known: set[str]) -> int:
    """How many components matching `wanted` against the `known` folded names creates."""
    created = 0
    for name in wanted:
        key, bare = name.casefold(), _bare(name).casefold()
        if key not in known and bare not in known:
            created += 1
            known.add(bare)
        known.add(key)
    return created


def _new_component(name: str, *, language: str) -> Component:
    base = slugify(name)[:40] or "component"
    slug, n = base, 2
    while Component.objects.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    position = Component.objects.count()
    return Component.objects.create(slug=slug, name={language: name}, position=position)


def _slugs(batch: list[ImportedIncident]) -> list[str]:
    wanted = [incident_slug(i.name, at=i.started_at) for i in batch]
    taken = set(Incident.objects.filter(slug__in=wanted).values_list("slug", flat=True))
    slugs = []
    for base in wanted:
        candidate, n = base, 2
        while candidate in taken:
            candidate, n = f"{base}-{n}", n + 1
            if n % 20 == 0:
                taken |= set(Incident.objects.filter(slug__startswith=base).values_list("slug", flat=True))
        taken.add(candidate)
        slugs.append(candidate)
    return slugs


def _free_public_ids(ids: list[str], model) -> set[str]:
    usable = {i for i in ids if PUBLIC_ID.match(i)}
    return usable - set(model.objects.filter(public_id__in=usable).values_list("public_id", flat=True))


def _write_batch(batch: list[ImportedIncident], components, *, language: str) -> tuple[int, int]:
    now = timezone.now()
    free_ids = _free_public_ids([i.statuspage_id for i in batch], Incident)
    rows = []
    for imported, slug in zip(batch, _slugs(batch), strict=True):
        row = Incident(
            slug=slug,
            statuspage_id=imported.statuspage_id,
            kind=imported.kind,
            title={language: imported.name},
            original_language=language,
            impact=imported.impact,
            status=imported.status,
            started_at=imported.started_at,
            monitoring_at=imported.monitoring_at,
            resolved_at=imported.resolved_at,
            scheduled_for=imported.scheduled_for,
            scheduled_until=imported.scheduled_until,
            published_at=imported.created_at,
            backfilled=True,
            created_at=imported.created_at,
            updated_at=imported.updated_at,
        )
        if imported.statuspage_id in free_ids:
            row.public_id = imported.statuspage_id
        rows.append(row)
    Incident.objects.bulk_create(rows)
    # bulk_create returns primary keys on PostgreSQL and SQLite; look them up for the others.
    if any(row.pk is None for row in rows):
        pks = dict(
            Incident.objects.filter(statuspage_id__in=[i.statuspage_id for i in batch]).values_list(
                "statuspage_id", "pk"
            )
        )
        for row in rows:
            row.pk = row.id = pks[row.statuspage_id]
    updates = _write_updates(batch, rows, components, language=language)
    _write_links(batch, rows, components)
    _write_postmortems(batch, rows, language=language, now=now)
    AuditEvent.objects.bulk_create(
        AuditEvent(
            actor=None,
            actor_label=actor_label(None, "import"),
            action="incident.imported_as_record",
            subject_type=Subject.INCIDENT,
            subject_id=str(row.pk),
            subject_label=str(row)[:300],
            incident=row,
            after={"statuspage_id": row.statuspage_id, "backfilled": True},
        )
        for row in rows
    )
    write_records_impact(
        row
        for imported, row in zip(batch, rows, strict=True)
        if row.resolved_at and any(update.affected for update in imported.updates)
    )
    return len(rows), updates


def _write_updates(batch, rows, components, *, language: str) -> int:
    update_ids = [u.statuspage_id for imported in batch for u in imported.updates]
    free_ids = _free_public_ids(update_ids, IncidentUpdate)
    updates, changes = [], []
    for imported, incident in zip(batch, rows, strict=True):
        for source in imported.updates:
            update = IncidentUpdate(
                incident=incident,
                statuspage_id=source.statuspage_id,
                status=source.status,
                body={language: source.body},
                body_html=rendered_texts({language: source.body}),
                original_language=language,
                display_at=source.display_at,
                created_at=source.created_at,
                updated_at=source.updated_at,
                deliver_notifications=False,
            )
            if source.statuspage_id in free_ids:
                update.public_id = source.statuspage_id
            updates.append(update)
            seen = set()
            for change in source.affected:
                component = components[change.name.casefold()].component
                if component.pk in seen:
                    continue
                seen.add(component.pk)
                changes.append((update, component, change))
    IncidentUpdate.objects.bulk_create(updates)
    ComponentChange.objects.bulk_create(
        ComponentChange(update=update, component=component, old_status=c.old_status, new_status=c.new_status)
        for update, component, c in changes
    )
    return len(updates)


def _write_links(batch, rows, components) -> None:
    links = set()
    for imported, incident in zip(batch, rows, strict=True):
        names = list(imported.component_names)
        names += [change.name for update in imported.updates for change in update.affected]
        links |= {(incident.pk, components[name.casefold()].component.pk) for name in names}
    through = Incident.components.through
    through.objects.bulk_create(
        through(incident_id=incident_id, component_id=component_id) for incident_id, component_id in links
    )


def _write_postmortems(batch, rows, *, language: str, now) -> None:
    Postmortem.objects.bulk_create(
        Postmortem(
            incident=incident,
            original_language=language,
            summary={language: imported.postmortem_body},
            state=PostmortemState.PUBLISHED if imported.postmortem_published_at else PostmortemState.DRAFT,
            published_at=imported.postmortem_published_at,
            created_at=now,
            updated_at=now,
        )
        for imported, incident in zip(batch, rows, strict=True)
        if imported.postmortem_body.strip()
    )
