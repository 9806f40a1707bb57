"""Status badges: /badge.svg for the page, /components/<slug>/badge.svg for one component."""

import xml.etree.ElementTree as ET

import pytest

from incidents.models import Component
from incidents.public.badges import PALETTES
from incidents.services.components import save_component

SVG = "{http://www.w3.org/2000/svg}"


def parsed(response) -> ET.Element:
    root = ET.fromstring(response.content)
    assert root.tag == f"{SVG}svg"
    return root


def title_of(root: ET.Element) -> str:
    return root.find(f"{SVG}title").text


def message_fill(root: ET.Element) -> str:
    return root.findall(f"{SVG}g/{SVG}rect")[1].get("fill")


def test_page_badge_is_an_svg_image_naming_the_pages_status(client, site):
    response = client.get("/badge.svg")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("image/svg+xml")
    root = parsed(response)
    assert root.get("role") == "img"
    # The API component is in a major outage: the page says so, in its outage colour.
    assert title_of(root) == "Acme Status: Major system outage"
    assert root.get("aria-label") == title_of(root)
    assert message_fill(root) == PALETTES["light"]["major"][0]


@pytest.mark.parametrize(
    ("status", "words", "tone"),
    [
        ("operational", "Operational", "ok"),
        ("degraded_performance", "Degraded performance", "degraded"),
        ("partial_outage", "Partial outage", "partial"),
        ("major_outage", "Major outage", "major"),
        ("under_maintenance", "Under maintenance", "maintenance"),
    ],
)
def test_component_badge_says_its_status_in_words_and_colour(client, site, admin, status, words, tone):
    email = site["email"]
    email.status = status
    save_component(email, actor=admin)

    light = parsed(client.get("/components/email-delivery/badge.svg"))
    dark = parsed(client.get("/components/email-delivery/badge.svg?theme=dark"))

    assert title_of(light) == f"Email delivery: {words}"
    assert message_fill(light) == PALETTES["light"][tone][0]
    assert message_fill(dark) == PALETTES["dark"][tone][0]


def _luminance(colour: str) -> float:
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    light, dark = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_every_badge_text_reads_at_four_and_a_half_to_one(theme):
    for tone, (background, text) in PALETTES[theme].items():
        assert contrast(background, text) >= 4.5, (theme, tone)


def test_large_badges_are_taller_and_dark_ones_use_the_dark_palette(client, site):
    flat = parsed(client.get("/badge.svg"))
    large = parsed(client.get("/badge.svg?style=large&theme=dark"))

    assert int(large.get("height")) > int(flat.get("height"))
    assert message_fill(large) == PALETTES["dark"]["major"][0]


def test_label_language_is_the_lang_parameter_with_numbers_written_for_svg(client, site):
    root = parsed(client.get("/components/public-api/badge.svg?lang=ru&style=large"))

    assert title_of(root).startswith("Публичный API: ")
    # Measures stay SVG numbers in every language (no decimal comma).
    assert "," not in root.get("width") + root.get("viewBox")
    for text in root.iter(f"{SVG}text"):
        float(text.get("x"))


def test_reader_language_does_not_change_the_badge(client, site):
    client.cookies["django_language"] = "ru"
    response = client.get("/components/public-api/badge.svg", HTTP_ACCEPT_LANGUAGE="ru")

    assert title_of(parsed(response)).startswith("Public API: ")
    assert response["Content-Language"] == "en"


def test_badges_live_outside_the_language_prefix(client, site):
    assert client.get("/ru/badge.svg").status_code == 404
    assert client.get("/ru/components/public-api/badge.svg").status_code == 404


def test_badge_is_cached_briefly_and_answers_304_to_its_etag(client, site):
    first = client.get("/components/public-api/badge.svg")
    assert "max-age=60" in first["Cache-Control"]
    assert first["ETag"]

    again = client.get("/components/public-api/badge.svg", HTTP_IF_NONE_MATCH=first["ETag"])

    assert again.status_code == 304
    assert again.content == b""


def test_badge_etag_changes_with_the_status(client, site, admin):
    first = client.get("/components/email-delivery/badge.svg")
    email = Component.objects.get(slug="email-delivery")
    email.status = "major_outage"
    save_component(email, actor=admin)

    again = client.get("/components/email-delivery/badge.svg", HTTP_IF_NONE_MATCH=first["ETag"])

    assert again.status_code == 200
    assert "Major outage" in title_of(parsed(again))


def test_unknown_component_is_a_404_that_still_draws_a_badge(client, site):
    response = client.get("/components/no-such-thing/badge.svg")

    assert response.status_code == 404
    assert "Unknown component" in title_of(parsed(response))


@pytest.mark.parametrize(
    "query",
    ["theme=purple", "style=%00huge", "lang=xx", "lang=../../etc", "theme=dark&theme=<script>", "style="],
)
def test_bad_parameters_draw_the_default_badge(client, site, query):
    response = client.get(f"/badge.svg?{query}")

    assert response.status_code == 200
    assert title_of(parsed(response)) == "Acme Status: Major system outage"


def test_post_is_refused(client, site):
    assert client.post("/badge.svg").status_code == 405
