"""SVG status badges of the page and of one component: a label box and a message box.

Every text/background pair reads at 4.5:1 or more (WCAG 1.4.3); the status is said in words.
"""

from dataclasses import dataclass

from django.conf import settings
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from incidents import selectors
from incidents.metrics.indicator import page_indicator
from incidents.models import Component, ComponentStatus
from incidents.translation import pick

THEMES = ("light", "dark")
# Tone of each page indicator value (Statuspage's); a component's is that of a page of it alone.
TONE_OF_INDICATOR = {
    "none": "ok",
    "minor": "degraded",
    "major": "partial",
    "critical": "major",
    "maintenance": "maintenance",
}
# (background, text) per tone and theme; the light ones are site.css's status colours with
# white text, the dark ones its dark-mode colours with the dark background as text.
PALETTES = {
    "light": {
        "label": ("#3d444d", "#ffffff"),
        "ok": ("#1a7f37", "#ffffff"),
        "degraded": ("#9a6700", "#ffffff"),
        "partial": ("#bc4c00", "#ffffff"),
        "major": ("#cf222e", "#ffffff"),
        "maintenance": ("#0550ae", "#ffffff"),
        "unknown": ("#59636e", "#ffffff"),
    },
    "dark": {
        "label": ("#21262d", "#e6edf3"),
        "ok": ("#3fb950", "#0d1117"),
        "degraded": ("#d29922", "#0d1117"),
        "partial": ("#f0883e", "#0d1117"),
        "major": ("#f85149", "#0d1117"),
        "maintenance": ("#58a6ff", "#0d1117"),
        "unknown": ("#9198a1", "#0d1117"),
    },
}


@dataclass(frozen=True)
class Size:
    height: int
    font_size: int
    padding: int


SIZES = {"flat": Size(height=20, font_size=11, padding=6), "large": Size(height=28, font_size=14, padding=9)}
# Average advance of a character in the sans-serif stack, in ems: text is also stretched or
# squeezed to the box (textLength), so a wider script still fits.
CHARACTER_WIDTH_EM = 0.62


@dataclass(frozen=True)
class Badge:
    label: str
    message: str
    tone: str  # a key of a palette

    @property
    def title(self) -> str:
        return f"{self.label}: {self.message}"


def page_badge() -> Badge:
    """The page-wide indicator ("All systems operational"), in the active language."""
    indicator = selectors.current_indicator()
    return Badge(settings.STATUS_PAGE_NAME, str(indicator.label), TONE_OF_INDICATOR[indicator.value])


def component_badge(component: Component, *, language: str) -> Badge:
    """A component's name (in `language`, with the usual fallback) and its status."""
    name = pick(component.name, language=language, original=component.original_language).text
    status = ComponentStatus(component.status)
    return Badge(name or component.slug, str(status.label), TONE_OF_INDICATOR[page_indicator([status]).value])


def unknown_badge() -> Badge:
    return Badge(settings.STATUS_PAGE_NAME, _("Unknown component"), "unknown")


def render_badge(badge: Badge, *, theme: str = "light", size: str = "flat") -> str:
    """The badge as an SVG document; an unknown theme or size draws the default one."""
    palette = PALETTES.get(theme, PALETTES["light"])
    measures = SIZES.get(size, SIZES["flat"])
    label_text = _text_width(badge.label, measures)
    message_text = _text_width(badge.message, measures)
    label_width = label_text + 2 * measures.padding
    message_width = message_text + 2 * measures.padding
    return render_to_string(
        "embeds/badge.svg",
        {
            "badge": badge,
            "size": measures,
            "width": label_width + message_width,
            "label": {"width": label_width, "x": label_width / 2, "text_width": label_text},
            "message": {
                "x_start": label_width,
                "width": message_width,
                "x": label_width + message_width / 2,
                "text_width": message_text,
            },
            "baseline": round(measures.height / 2 + measures.font_size * 0.35, 1),
            "colours": {"label": palette["label"], "message": palette[badge.tone]},
            "radius": 3 if size != "large" else 4,
        },
    )


def _text_width(text: str, size: Size) -> int:
    return max(round(len(text) * size.font_size * CHARACTER_WIDTH_EM), size.font_size)
