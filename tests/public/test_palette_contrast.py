"""The colour tokens of static/css/site.css, light and dark: text and every status colour read
as text (WCAG AA, 4.5:1) on the page and on surfaces, and the system's dark palette is the same
as the one the toggle chooses."""

import re
from pathlib import Path

import pytest

CSS = (Path(__file__).resolve().parents[2] / "static" / "css" / "site.css").read_text(encoding="utf-8")
STATUS = ("ok", "degraded", "partial", "major", "maintenance")
TEXT = ("text", "muted", "link", *STATUS)


def tokens(block: str) -> dict[str, str]:
    return dict(re.findall(r"--([a-z0-9-]+):\s*(#[0-9a-fA-F]{6})", block))


def block_after(marker: str) -> str:
    start = CSS.index(marker)
    return CSS[start : CSS.index("}", start)]


LIGHT = tokens(block_after(":root {"))
SYSTEM_DARK = tokens(block_after(":root:not([data-theme=light]) {"))
CHOSEN_DARK = tokens(block_after(":root[data-theme=dark] {"))


def luminance(hex_colour: str) -> float:
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_the_system_dark_palette_is_the_chosen_dark_palette():
    assert SYSTEM_DARK == CHOSEN_DARK
    assert set(SYSTEM_DARK) >= {"bg", "surface", "text", *STATUS}


@pytest.mark.parametrize("palette", [LIGHT, CHOSEN_DARK], ids=["light", "dark"])
@pytest.mark.parametrize("name", TEXT)
def test_text_and_status_colours_read_on_page_and_surface(palette, name):
    for background in ("bg", "surface"):
        ratio = contrast(palette[name], palette[background])
        assert ratio >= 4.5, f"--{name} on --{background}: {ratio:.2f}:1"


@pytest.mark.parametrize("palette", [LIGHT, CHOSEN_DARK], ids=["light", "dark"])
def test_banner_and_subscribe_text_read_on_status_and_link_colours(palette):
    for name in (*STATUS, "link"):
        ratio = contrast(palette["on-status"] if name != "link" else palette["bg"], palette[name])
        assert ratio >= 4.5, f"text on --{name}: {ratio:.2f}:1"


def test_contrast_is_computed_as_wcag_does():
    assert round(contrast("#000000", "#ffffff"), 1) == 21.0
    assert round(contrast("#767676", "#ffffff"), 2) == 4.54


@pytest.mark.parametrize("palette", [LIGHT, CHOSEN_DARK], ids=["light", "dark"])
def test_the_no_data_colour_stands_out_as_a_shape(palette):
    for background in ("bg", "surface"):
        assert contrast(palette["none"], palette[background]) >= 3  # WCAG 1.4.11, non-text
