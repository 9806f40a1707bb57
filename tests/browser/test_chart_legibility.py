"""Metric charts as a visitor reads them in Chromium on a 390 px phone: every text of a chart
(axis values, times, threshold names, the summary) at least 12 px, no two labels on top of each
other, and no serious axe-core finding in light or dark; at 1280 px the labels still keep apart."""

import pytest
from django.test import Client

from incidents.models import Component, Incident
from tests.browser.conftest import serious_axe_violations, use_color_scheme, use_viewport

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Every element that carries a chart's words, and the rectangle its text occupies.
CHART_TEXTS = """
return [...document.querySelectorAll('figure.line-chart')].map(figure => {
  const texts = [...figure.querySelectorAll(
    'figcaption, .chart-y > span, .chart-x > span, .chart-legend > li, .chart-summary, svg text')];
  return texts.map(el => {
    const range = document.createRange();
    range.selectNodeContents(el);
    const r = range.getBoundingClientRect();
    return {text: el.textContent.trim(), size: parseFloat(getComputedStyle(el).fontSize),
            tag: el.tagName, box: [r.left, r.top, r.right, r.bottom]};
  });
});
"""


@pytest.fixture
def chart_pages(settings, demo_loaded):
    """The demo's first component with a metric, and an incident whose page charts a metric."""
    settings.PUBLIC_PAGE_CACHE_SECONDS = 0
    component = Component.objects.filter(metrics__isnull=False).order_by("position", "pk").first()
    client = Client()
    incident = next(
        incident
        for incident in Incident.objects.published().order_by("-started_at")
        if 'class="line-chart"' in client.get(f"/incidents/{incident.slug}/").content.decode()
    )
    return [f"/components/{component.slug}/", f"/incidents/{incident.slug}/"]


def overlapping(texts: list[dict]) -> list[tuple[str, str]]:
    """Pairs of labels whose text rectangles intersect (a pixel of slack for anti-aliasing)."""
    pairs = []
    for i, first in enumerate(texts):
        for second in texts[i + 1 :]:
            (l1, t1, r1, b1), (l2, t2, r2, b2) = first["box"], second["box"]
            if l1 < r2 - 1 and l2 < r1 - 1 and t1 < b2 - 1 and t2 < b1 - 1:
                pairs.append((first["text"], second["text"]))
    return pairs


def assert_chart_texts_readable(browser, path: str, width: int) -> None:
    figures = browser.execute_script(CHART_TEXTS)
    assert figures, f"no chart on {path}"
    for texts in figures:
        assert not [t for t in texts if t["tag"].lower() == "text"], (
            "text drawn inside the SVG scales with it"
        )
        shown = [t for t in texts if t["text"] and t["box"][3] > t["box"][1]]
        assert len(shown) >= 6, texts  # caption, two values, two times, summary at least
        small = [(t["text"], t["size"]) for t in shown if t["size"] < 12]
        assert small == [], f"{path} at {width}px: text under 12 px {small}"
        heights = [t["box"][3] - t["box"][1] for t in shown]
        assert min(heights) >= 12, f"{path} at {width}px: a line of text {min(heights)} px high"
        assert overlapping(shown) == [], f"{path} at {width}px"


def threshold_contrast(browser) -> list[tuple[str, float]]:
    """Each threshold line's colour against the page background, as WCAG's contrast ratio."""
    return browser.execute_script(
        """
        const lum = c => { const [r, g, b] = c.match(/\\d+/g).slice(0, 3).map(v => {
            v = v / 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
          return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
        const bg = lum(getComputedStyle(document.body).backgroundColor);
        return [...document.querySelectorAll('svg.chart line.threshold, .chart-legend line')].map(line => {
          const fg = lum(getComputedStyle(line).stroke);
          return [line.getAttribute('class') || line.closest('li').className,
                  (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05)];
        });
        """
    )


@pytest.mark.parametrize("width", [390, 1280])
def test_chart_texts_stay_readable_apart_and_accessible_in_light_and_dark(
    browser, live_server, chart_pages, width
):
    use_viewport(browser, width)
    found = {}
    for scheme in ("light", "dark"):
        use_color_scheme(browser, scheme)
        for path in chart_pages:
            browser.get(live_server.url + path)
            assert_chart_texts_readable(browser, path, width)
            contrasts = threshold_contrast(browser)
            assert contrasts, f"no threshold line on {path}"
            low = [(name, round(ratio, 2)) for name, ratio in contrasts if ratio < 3]
            assert low == [], f"{path} in {scheme}: threshold lines under 3:1 against the page"
            violations = serious_axe_violations(browser)
            if violations:
                found[(path, scheme)] = violations
    assert found == {}
