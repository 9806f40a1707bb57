"""What the overview's components section depends on beyond the rows the page reads anyway, in
two hand-written queries (compiling them through the ORM cost more than running them): enough
to tell that it changed, never the rows the section draws."""

import datetime as dt
import hashlib

from django.db import connection

from incidents.models import Incident, IncidentKind, Metric, Probe, StatusPeriod


def components_section_stamp(*, since: dt.datetime, now: dt.datetime) -> tuple:
    """Metrics and probes (how many, last edited), the status periods since `since` (how many,
    the newest) and a digest of the incidents the day bars since `since` list: a metric,
    threshold or probe edited, a status period begun or closed, or a listed incident retitled,
    resolved or linked to another component moves it. Periods laid over past days move their
    components' `updated_at` instead."""
    adapt = connection.ops.adapt_datetimefield_value
    with connection.cursor() as cursor:
        # One round trip: the counts on every row, beside each listed incident (or alone).
        cursor.execute(
            f"SELECT * FROM ({_counts_sql()}) counts LEFT JOIN ({_bar_incidents_sql()}) bars ON 1 = 1"
            " ORDER BY bars.component_id, bars.started_at, bars.id",
            [adapt(since), IncidentKind.INCIDENT.value, adapt(since), adapt(now)],
        )
        rows = cursor.fetchall()
    counts = rows[0][:COUNTS]
    incidents = hashlib.sha256(repr([row[COUNTS:] for row in rows]).encode()).hexdigest()
    return (*counts, incidents)


COUNTS = 6  # the columns of _counts_sql


def _counts_sql() -> str:
    q = connection.ops.quote_name
    metric, probe, period = (q(model._meta.db_table) for model in (Metric, Probe, StatusPeriod))
    return (
        f"SELECT (SELECT COUNT(*) FROM {metric}) metrics, (SELECT MAX({q('updated_at')}) FROM {metric}) metric_edit,"
        f" (SELECT COUNT(*) FROM {probe}) probes, (SELECT MAX({q('updated_at')}) FROM {probe}) probe_edit,"
        f" (SELECT MAX({q('id')}) FROM {period}) last_period,"
        f" (SELECT COUNT(*) FROM {period} WHERE {q('ended_at')} IS NULL OR {q('ended_at')} > %s) periods"
    )


def _bar_incidents_sql() -> str:
    """The published incidents touching any component, unresolved or resolved since one time
    and begun before another (its parameters: the kind, then the two times), as
    selectors.uptime.incidents_by_component reads them for the bars."""
    q = connection.ops.quote_name
    links, incident = q(Incident.components.through._meta.db_table), q(Incident._meta.db_table)
    fields = ", ".join(
        f"i.{q(name)}" for name in ("id", "slug", "title", "original_language", "started_at", "resolved_at")
    )
    return (
        f"SELECT l.{q('component_id')} component_id, {fields} FROM {links} l"
        f" JOIN {incident} i ON i.{q('id')} = l.{q('incident_id')}"
        f" WHERE i.{q('published_at')} IS NOT NULL AND i.{q('kind')} = %s"
        f" AND (i.{q('resolved_at')} IS NULL OR i.{q('resolved_at')} >= %s) AND i.{q('started_at')} < %s"
    )
