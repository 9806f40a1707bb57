"""What the external checkers (Nu validator, pa11y with axe and HTML_CodeSniffer) found once,
kept from coming back by reading the server-rendered pages (docs/bench/quality-checks.md)."""

import re
from pathlib import Path

import pytest
from django.conf import settings

pytestmark = pytest.mark.django_db

# A status shape written as text (a lone symbol) is a contrast axe cannot measure: it answers
# "needs review", which pa11y counts as an error. The shapes are drawn by CSS from data-icon.
# (Arrows, shapes, dingbats: U+2190 to U+2BFF.)
SHAPE_AS_TEXT = re.compile(r"<span[^>]*>\s*[\u2190-\u2bff]\s*</span>")


@pytest.mark.parametrize(
    "path", ["/", "/ru/", "/components/public-api/", "/components/webhook-delivery/", "/history/", "/widget/"]
)
def test_status_shapes_are_drawn_from_data_icon_not_written_as_text(client, site, path):
    page = client.get(path).content.decode()

    assert not SHAPE_AS_TEXT.search(page)
    if path != "/history/":
        assert re.search(r'<span class="icon" data-icon="[✓▲◆✕⚙∅]" aria-hidden="true"></span>', page)


def test_the_stylesheet_draws_the_status_shapes_and_colours_the_words_hidden_in_day_bars():
    css = (Path(settings.BASE_DIR) / "static/css/site.css").read_text()

    assert ".icon::before { content: attr(data-icon); }" in css
    # HTML_CodeSniffer measures the day's words (moved out of sight by text-indent) on the bar.
    assert ".days > li > a { color: var(--on-status); }" in css


def test_the_webhook_address_field_does_not_offer_the_visitors_home_page(client, site):
    page = client.get("/subscribe/").content.decode()

    field = re.search(r'<input[^>]*name="endpoint_url"[^>]*>', page)
    assert field, "no webhook address field"
    # autocomplete="url" names a person's home page; it also crashes HTML_CodeSniffer's
    # autocomplete check (a missing message), so pa11y could not check the page at all.
    assert 'autocomplete="url"' not in field.group(0)
