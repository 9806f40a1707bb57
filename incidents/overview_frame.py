"""The overview, drawn when what it shows changes; each request only fills in the live figures.

Apart from the live metric figures (value, age, the metric's own status, "up, but late"),
everything on the overview changes only on writes, which all call
`page_cache.content_changed()` and so bump the structure version, or with the passing of
time (today's bar, the 24-hour sparklines). The overview is therefore drawn into a frame per
language, stored in the database with the structure version it was drawn at, and drawn again
when that version changes or after OVERVIEW_FRAME_SECONDS (0: drawn on every request). Each
process reads a frame once per version; a request then reads the metrics' live columns in one
query and fills the slots.

New samples arrive every few seconds: they bump the page cache (incidents.page_cache) but not
the structure version, so a cache miss under load costs a fill, not a full drawing of every
component's bars and sparklines.
"""

import copy
import datetime as dt
import hashlib
from dataclasses import dataclass, field

from django.conf import settings
from django.db import DatabaseError, transaction
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe

from incidents import formatting, page_cache, presentation, selectors
from incidents.metrics import readings
from incidents.models import ComponentStatus, Metric, OverviewFrame

# An HTML comment cannot come from content: every text on the page is escaped ("<" as "&lt;").
SLOT_START, SLOT_END = "<!--live:", "-->"
# Frames are kept and filled as UTF-8 bytes: a page of 60 components is over 300 KB,
# and decoding it into a str and encoding it back would cost more than filling it.
SLOT_START_BYTES, SLOT_END_BYTES = SLOT_START.encode(), SLOT_END.encode()


def metric_slot(metric_id: int) -> SafeString:
    return mark_safe(f"{SLOT_START}metric:{int(metric_id)}{SLOT_END}")  # noqa: S308 - digits only


def late_slot(component_id: int) -> SafeString:
    return mark_safe(f"{SLOT_START}late:{int(component_id)}{SLOT_END}")  # noqa: S308 - digits only


@dataclass
class HeldFrame:
    """A frame as this process holds it: the metrics it shows (thresholds, units and names;
    their live columns are read on every request), how old each one's sample may be before it
    is "no data", and the live figures written for them so far, by what they say (most metrics
    show the same value and age from one request to the next second)."""

    frame: OverviewFrame
    metrics: dict[int, Metric]
    stale_after: dict[int, dt.timedelta] = field(init=False)
    figures: dict[tuple, tuple[presentation.MetricRow, bytes]] = field(default_factory=dict)
    # The page last filled, by the digest of its live texts: a page of 60 components is over
    # 400 KB, and the same figures (within one second) give the same bytes.
    filled: tuple[str, bytes] | None = None

    def __post_init__(self):
        self.stale_after = {pk: readings.stale_after(metric) for pk, metric in self.metrics.items()}


# Frames this process has read, by language. One is used only while the structure version it
# was drawn at is current and it has not expired.
_held: dict[str, HeldFrame] = {}
LIVE_COLUMNS = ("pk", "latest_value", "latest_at", "health__status")
FIGURES_KEPT = 4096


def overview_html(request: HttpRequest, language: str) -> tuple[bytes, str]:
    """The overview page in `language` and its ETag, from its frame when the stored one is current."""
    version = _structure_version() if settings.OVERVIEW_FRAME_SECONDS > 0 else None  # None: draw afresh
    held = _held.get(language) if version else None
    if held and held.frame.version == version and held.frame.expires_at > timezone.now():
        return fill(held, language=language)
    frame = _stored_frame(language, version) if version else None
    if frame is None:
        frame, metrics = draw(request, language, version)
    else:
        metric_ids = [pk for ids in frame.layout["metrics"].values() for pk in ids]
        metrics = {m.pk: m for m in selectors.live_metrics().filter(pk__in=metric_ids)}
    held = HeldFrame(frame, metrics)
    if version:
        _held[language] = held
    return fill(held, language=language)


def forget_held_frames() -> None:
    """Drops this process's copies (tests: a rolled-back frame must not reach the next test)."""
    _held.clear()


def _structure_version() -> str | None:
    version = page_cache.structure_version_or_none()
    return None if version is None else str(version)


def _stored_frame(language: str, version: str) -> OverviewFrame | None:
    return OverviewFrame.objects.filter(
        language=language, version=version, expires_at__gt=timezone.now()
    ).first()


def draw(request: HttpRequest, language: str, version: str | None) -> tuple[OverviewFrame, dict[int, Metric]]:
    """Draws the overview with slots for the live figures, and stores it when it can; returns
    it with the metrics it shows (as the drawing loaded them)."""
    now = timezone.now()
    context = overview_context(language)
    html = render_to_string("public/overview.html", context, request=_without_query(request)).encode()
    frame = OverviewFrame(
        language=language,
        version=version or "",
        html=html,
        layout={**_layout(context["groups"]), "slots": _slots(html)},
        drawn_at=now,
        expires_at=now + dt.timedelta(seconds=settings.OVERVIEW_FRAME_SECONDS),
    )
    if version:
        _store(frame)
    rows = [row for _group, group_rows in context["groups"] for row in group_rows]
    return frame, {m.metric.pk: m.metric for row in rows for m in row.metrics}


def overview_context(language: str) -> dict:
    summary = selectors.page_summary()
    shown_components = [c for g in summary.groups for c in g.components]
    metrics = [m for c in shown_components for m in c.metrics.all()]
    hourly = selectors.hourly_values(metrics)
    days = selectors.uptime_days([c for c in shown_components if c.showcase], days=presentation.UPTIME_DAYS)
    texts = presentation.BarTexts(language)
    groups = [
        (
            group,
            presentation.component_rows(
                group.components, language=language, hourly=hourly, days=days, texts=texts
            ),
        )
        for group in summary.groups
    ]
    return {
        "summary": summary,
        "groups": groups,
        "has_components": bool(summary.components),
        "uptime_days": presentation.UPTIME_DAYS,
        "live_slots": True,
    }


def _without_query(request: HttpRequest) -> HttpRequest:
    """The request as the frame sees it: tracking parameters must not end up in its links."""
    plain = copy.copy(request)
    plain.META = {**request.META, "QUERY_STRING": ""}
    return plain


def _layout(groups) -> dict:
    rows = [row for _group, group_rows in groups for row in group_rows]
    return {
        "metrics": {str(row.component.pk): [m.metric.pk for m in row.metrics] for row in rows},
        "operational": [row.component.pk for row in rows if row.status == ComponentStatus.OPERATIONAL],
    }


def _slots(html: bytes) -> list[tuple[int, int, str, int]]:
    """Where each slot is in the frame: (start, end, kind, id), so a fill copies the page once."""
    slots, start = [], html.find(SLOT_START_BYTES)
    while start != -1:
        end = html.index(SLOT_END_BYTES, start) + len(SLOT_END_BYTES)
        kind, _colon, pk = (
            html[start + len(SLOT_START_BYTES) : end - len(SLOT_END_BYTES)].decode().partition(":")
        )
        slots.append((start, end, kind, int(pk)))
        start = html.find(SLOT_START_BYTES, end)
    return slots


def _store(frame: OverviewFrame) -> None:
    try:
        with transaction.atomic():
            OverviewFrame.objects.bulk_create(
                [frame],
                update_conflicts=True,
                unique_fields=["language"],
                update_fields=["version", "html", "layout", "drawn_at", "expires_at"],
            )
    except DatabaseError:  # a read-only database still gets its page, drawn for this request
        pass


def fill(held: HeldFrame, *, language: str) -> tuple[bytes, str]:
    """The page with its live figures, and an ETag for it (hashing the whole page would cost
    more than filling it: the frame's identity plus the live texts name it as well)."""
    frame, metrics, figures = held.frame, held.metrics, held.figures
    now = timezone.now()
    rows = {}
    for pk, value, at, health_status in (
        Metric.objects.filter(pk__in=list(metrics)).order_by().values_list(*LIVE_COLUMNS)
    ):
        no_data = at is None or now - at > held.stale_after[pk]
        age = formatting.format_age(now - at, language) if at else ""
        key = (pk, value, at, health_status, no_data, age)
        if key not in figures:
            if len(figures) >= FIGURES_KEPT:
                figures.clear()
            reading = readings.reading_of(
                metrics[pk], value=value, at=at, health_status=health_status, now=now
            )
            row = presentation.metric_row(metrics[pk], language=language, reading=reading, now=now)
            figures[key] = (row, presentation.metric_now_html(row).encode())
        rows[pk] = figures[key]
    late = {}  # the operational components that are late, with their late metric
    for component_id in frame.layout["operational"]:
        for pk in frame.layout["metrics"][str(component_id)]:
            if pk in rows and rows[pk][0].late:
                late[component_id] = rows[pk][0]
                break

    def live(kind: str, pk: int) -> bytes:
        if kind == "metric":
            return rows[pk][1] if pk in rows else b""
        return presentation.late_note_html(late[pk]).encode() if pk in late else b""

    live_parts = [live(kind, pk) for _start, _end, kind, pk in frame.layout["slots"]]
    digest = hashlib.md5(b"\x00".join(live_parts), usedforsecurity=False).hexdigest()
    etag = f'"{frame.language}-{frame.drawn_at.timestamp():.6f}-{digest}"'
    filled = held.filled
    if filled is None or filled[0] != digest:
        filled = held.filled = (digest, _joined(frame, live_parts))
    return filled[1], etag


def _joined(frame: OverviewFrame, live_parts: list[bytes]) -> bytes:
    # Slices of a memoryview copy nothing: the page is copied once, by the join.
    page = memoryview(bytes(frame.html))
    parts, position = [], 0
    for (start, end, _kind, _pk), live_part in zip(frame.layout["slots"], live_parts, strict=True):
        parts += (page[position:start], live_part)
        position = end
    parts.append(page[position:])
    return b"".join(parts)
