"""What a chat or SMS notification about an update says, in the subscriber's language: the
`UpdateContent` plus the incident's impact and each affected component's live figure.

Every text a chat service shows is taken here with its mentions broken, so no service's message
built from it can notify a channel or a person: what staff, an alert or an import wrote must not
page a whole channel. Each service acts on its own syntax: `@everyone`, `@here`, `<@123>`,
`<@!123>` and `<@&123>` (Discord), `<!channel>`, `<!here>`, `<@U123>` and `@channel` (Slack),
`@all`, `@channel` and `@name` (Mattermost, Telegram), `@room` (Matrix). A zero-width space after
the `@` (and between `<` and `!`) breaks every one of them and shows nothing. An `@` inside a word
(an email address) is no mention and is left alone, except before the broadcast words, which some
services read anywhere.
"""

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _

from incidents.formatting import format_number
from incidents.metrics.readings import metric_reading
from incidents.models import Delivery, Impact, IncidentUpdate, Metric
from incidents.translation import pick

from .base import update_of
from .content import ContentCache, UpdateContent, content_key, render_content
from .emails import MANAGE_MARKER
from .links import manage_url

BROADCASTS = "everyone|here|channel|all|room|group"
MENTION_START = re.compile(
    rf"(?<![\w.+-])@(?=[\w!&])|@(?=(?:{BROADCASTS})\b)|<(?=!)", re.IGNORECASE | re.UNICODE
)


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def without_mentions(text: str) -> str:
    return MENTION_START.sub(lambda match: match.group() + "\u200b", text)  # a zero-width space


@dataclass(frozen=True)
class ChatComponent:
    name: str
    status: str
    status_label: str
    figure: str  # "p95 latency: 340 ms", or empty when the component has no live reading


@dataclass(frozen=True)
class ChatContent:
    content: UpdateContent  # as written, mentions and all
    title: str
    body: str
    impact_label: str
    components: tuple[ChatComponent, ...]
    heading: str  # "Title: Status", the fallback text and the title of short notifications

    @property
    def url(self) -> str:
        return self.content.incident_url


def live_figures(component_ids: list[int], language: str) -> dict[int, str]:
    """Each component's first metric with a current reading, as "name: value unit"."""
    metrics = Metric.objects.filter(component_id__in=component_ids).select_related("probe", "health")
    figures: dict[int, str] = {}
    for metric in metrics.order_by("component_id", "position", "slug"):
        reading = None if metric.component_id in figures else metric_reading(metric)
        if reading is None or reading.value is None:
            continue
        number = format_number(reading.value, language, precision=metric.precision)
        unit = {"%": "%", "count": ""}.get(metric.unit, f"\u00a0{metric.unit}")
        name = pick(metric.name, language=language).text or metric.slug
        figures[metric.component_id] = f"{name}: {number}{unit}"
    return figures


def render_chat_content(update: IncidentUpdate, language: str) -> ChatContent:
    content = render_content(update, language)
    figures = live_figures([line.component_id for line in content.components], language)
    impact = "maintenance" if update.incident.is_maintenance else update.incident.impact
    with translation.override(language):
        title = without_mentions(content.title.text)
        return ChatContent(
            content=content,
            title=title,
            body=without_mentions(content.body.text),
            impact_label=str(_("Maintenance") if impact == "maintenance" else Impact(impact).label),
            components=tuple(
                ChatComponent(
                    name=without_mentions(line.name),
                    status=line.status,
                    status_label=line.status_label,
                    figure=without_mentions(figures.get(line.component_id, "")),
                )
                for line in content.components
            ),
            heading=_("%(title)s: %(status)s") % {"title": title, "status": content.status_label},
        )


_cache = ContentCache()


def chat_content(delivery: Delivery, *, kind: str, build: Callable[[ChatContent], Any]) -> Any:
    """`build(ChatContent)` of the delivery's update in its subscriber's language, once per
    (update, language, kind) in this process."""
    update, language = update_of(delivery), delivery.subscriber.language
    return _cache.get(
        content_key(update, language, kind), lambda: build(render_chat_content(update, language))
    )


def with_manage_link(text: str, delivery: Delivery) -> str:
    return text.replace(MANAGE_MARKER, manage_url(delivery.subscriber))
