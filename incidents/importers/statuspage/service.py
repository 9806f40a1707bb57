"""Importing a Statuspage export as records of the past.

Every incident is entered as a record (`backfilled`): nobody is notified and current component
status stays as it is; a resolved record's component impact is laid over its own days. Rows are
written in bulk, a batch per transaction (`manage.py import_statuspage`), or all in one for an
upload, after the whole document has been checked (parsing), so bad input writes nothing.
Incidents and updates keep their Statuspage ids (`statuspage_id`, and `public_id` when it is
free), so a second run finds them and creates nothing; components are matched by name
("Group - Component" too) and created when missing.
"""

import re
from dataclasses import dataclass

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
from incidents.services.audit import actor_label
from incidents.services.component_limits import check_import_creates, check_room_for_components
from incidents.translation import validate_language

BATCH_SIZE = 500
PUBLIC_ID = re.compile(r"^[a-z0-9]{1,12}$")


@dataclass(frozen=True)
class ImportResult:
    incidents: int
    updates: int
    components: int
    skipped: int


@transaction.atomic
def import_upload(export: dict, *, language: str) -> ImportResult:
    """import_export in one transaction: a refusal anywhere writes nothing."""
    return import_export(export, language=language)


def import_export(export: dict, *, language: str) -> ImportResult:
    """Writes the incidents of `export` (parsing.parse_export) not imported before; returns what
    it created. ValidationError (nothing written) past the component limits."""
    validate_language(language)
    ids = [incident["id"] for incident in export["incidents"]]
    known = set(Incident.objects.filter(statuspage_id__in=ids).values_list("statuspage_id", flat=True))
    fresh = [incident for incident in export["incidents"] if incident["id"] not in known]
    components, created_components = components_by_name(export, fresh, language=language)
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


def _names_of(component: Component) -> set[str]:
    names = {text.strip().casefold() for text in component.name.values() if text.strip()}
    if component.group_id:
        names |= {
            f"{group_name.strip()} - {name}".casefold()
            for group_name in component.group.name.values()
            for name in component.name.values()
        }
    return names


def components_by_name(
    export: dict, incidents: list[dict], *, language: str
) -> tuple[dict[str, Component], int]:
    """Every component named in the export, by folded name, created (operational) when missing,
    and how many were created.

    Refuses (ValidationError, nothing created) an export that would create more components than
    one import may, or than the page may hold."""
    matched: dict[str, Component] = {}
    for component in Component.objects.select_related("group"):
        for name in _names_of(component):
            matched.setdefault(name, component)
    wanted = export["component_names"] + [name for incident in incidents for name in _names_in(incident)]
    missing: dict[str, str] = {}  # folded bare name: bare name
    for name in wanted:
        if name.casefold() not in matched and _bare(name).casefold() not in matched:
            missing.setdefault(_bare(name).casefold(), _bare(name))
    check_import_creates(creating=len(missing))
    if missing:
        check_room_for_components(adding=len(missing))
    with transaction.atomic():
        matched |= {key: _new_component(name, language=language) for key, name in missing.items()}
    for name in wanted:
        if name.casefold() not in matched:
            matched[name.casefold()] = matched[_bare(name).casefold()]
    return matched, len(missing)


def _names_in(incident: dict) -> list[str]:
    affected = [
        change["name"] for update in incident["incident_updates"] for change in update["affected_components"]
    ]
    return incident["component_names"] + affected


def _bare(name: str) -> str:
    """ "Group - Component" names the component "Component"."""
    return name.split(" - ", 1)[1] if " - " in name else name


def _new_component(name: str, *, language: str) -> Component:
    base = slugify(name)[:40] or "component"
    slug, n = base, 2
    while Component.objects.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    position = Component.objects.count()
    return Component.objects.create(slug=slug, name={language: name}, position=position)


def _slugs(batch: list[dict]) -> list[str]:
    wanted = [incident_slug(i["name"], at=i["started_at"]) for i in batch]
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


def _write_batch(batch: list[dict], components, *, language: str) -> tuple[int, int]:
    now = timezone.now()
    free_ids = _free_public_ids([i["id"] for i in batch], Incident)
    rows = []
    for imported, slug in zip(batch, _slugs(batch), strict=True):
        row = Incident(
            slug=slug,
            statuspage_id=imported["id"],
            title={language: imported["name"]},
            original_language=language,
            kind=imported["kind"],
            impact=imported["impact"],
            status=imported["status"],
            started_at=imported["started_at"],
            monitoring_at=imported["monitoring_at"],
            resolved_at=imported["resolved_at"],
            scheduled_for=imported["scheduled_for"],
            scheduled_until=imported["scheduled_until"],
            published_at=imported["created_at"],
            backfilled=True,
            created_at=imported["created_at"],
            updated_at=imported["updated_at"],
        )
        if imported["id"] in free_ids:
            row.public_id = imported["id"]
        rows.append(row)
    Incident.objects.bulk_create(rows)  # sets primary keys, on PostgreSQL and SQLite alike
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
        if row.resolved_at and any(update["affected_components"] for update in imported["incident_updates"])
    )
    return len(rows), updates


def _write_updates(batch, rows, components, *, language: str) -> int:
    update_ids = [u["id"] for imported in batch for u in imported["incident_updates"]]
    free_ids = _free_public_ids(update_ids, IncidentUpdate)
    updates, changes = [], []
    for imported, incident in zip(batch, rows, strict=True):
        for source in imported["incident_updates"]:
            update = IncidentUpdate(
                incident=incident,
                statuspage_id=source["id"],
                status=source["status"],
                body={language: source["body"]},
                body_html=rendered_texts({language: source["body"]}),
                original_language=language,
                display_at=source["display_at"],
                created_at=source["created_at"],
                updated_at=source["updated_at"],
                deliver_notifications=False,
            )
            if source["id"] in free_ids:
                update.public_id = source["id"]
            updates.append(update)
            firsts = {}  # a component named twice keeps its first change
            for change in source["affected_components"]:
                firsts.setdefault(components[change["name"].casefold()], change)
            changes += [(update, component, change) for component, change in firsts.items()]
    IncidentUpdate.objects.bulk_create(updates)
    ComponentChange.objects.bulk_create(
        ComponentChange(
            update=update, component=component, old_status=c["old_status"], new_status=c["new_status"]
        )
        for update, component, c in changes
    )
    return len(updates)


def _write_links(batch, rows, components) -> None:
    links = set()
    for imported, incident in zip(batch, rows, strict=True):
        links |= {(incident.pk, components[name.casefold()].pk) for name in _names_in(imported)}
    through = Incident.components.through
    through.objects.bulk_create(
        through(incident_id=incident_id, component_id=component_id) for incident_id, component_id in links
    )


def _write_postmortems(batch, rows, *, language: str, now) -> None:
    Postmortem.objects.bulk_create(
        Postmortem(
            incident=incident,
            original_language=language,
            summary={language: imported["postmortem_body"]},
            state=PostmortemState.PUBLISHED if imported["postmortem_published_at"] else PostmortemState.DRAFT,
            published_at=imported["postmortem_published_at"],
            created_at=now,
            updated_at=now,
        )
        for imported, incident in zip(batch, rows, strict=True)
        if imported["postmortem_body"].strip()
    )
