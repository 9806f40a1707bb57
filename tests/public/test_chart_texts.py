"""Metric charts keep every text readable: threshold names in a legend beside a line of their own
dash pattern (never drawn over each other inside the SVG), values and times formatted in the
page's language, and a text alternative a reader can reach without hovering."""

import datetime as dt
import re

from incidents.public import charts

START = dt.datetime(2026, 3, 10, 10, 0, tzinfo=dt.UTC)


def close_thresholds_chart() -> charts.LineChart:
    """The case that collided before: degraded at 800 ms and partial outage at 1,000 ms, both
    inside the scale, two lines a few pixels apart."""
    points = [(START + dt.timedelta(minutes=m), 850.0 + m) for m in range(60)]
    return charts.line_chart(
        points,
        ident="chart-1-24h",
        title="Last 24 hours",
        name="Chart of API latency, last 24 hours",
        summary="API latency: from 850 ms to 909 ms, latest 909 ms",
        start=START,
        end=START + dt.timedelta(hours=1),
        thresholds=[
            charts.Threshold("status-degraded_performance", "Degraded performance 800 ms", 800.0),
            charts.Threshold("status-partial_outage", "Partial outage 1,000 ms", 1000.0),
            charts.Threshold("status-major_outage", "Major outage 5,000 ms", 5000.0),
        ],
        start_label="10:00",
        end_label="11:00",
    )


def threshold_lines(svg: str) -> list[tuple[str, float, str]]:
    """(status class, y, dash pattern) of each threshold line the SVG draws."""
    return [
        (status, float(y), dash)
        for status, y, dash in re.findall(
            r'<line class="threshold (status-\w+)" x1="0" y1="([\d.]+)"[^>]*stroke-dasharray="([\d ]+)"', svg
        )
    ]


def test_close_thresholds_are_named_in_the_legend_not_over_each_other_in_the_chart():
    chart = close_thresholds_chart()
    lines = threshold_lines(chart.svg)
    # Two lines drawn: the curve peaks at 909 ms, so 1,000 ms lies within the scale…
    assert [status for status, _y, _dash in lines] == ["status-degraded_performance", "status-partial_outage"]
    assert abs(lines[0][1] - lines[1][1]) < 40  # …so close that labels beside them would collide,
    # which is why the SVG holds no text at all: no label can be drawn over another.
    assert "<text" not in chart.svg
    assert [entry.label for entry in chart.legend] == [
        "Degraded performance 800 ms",
        "Partial outage 1,000 ms",
        "Major outage 5,000 ms",
    ]
    assert [entry.above for entry in chart.legend] == [False, False, True]
    assert (
        "Major outage" not in chart.svg and "status-major_outage" not in chart.svg
    )  # above: named, not drawn


def test_each_status_line_has_its_own_dash_pattern_repeated_in_the_legend():
    chart = close_thresholds_chart()
    dashes = [entry.dash for entry in chart.legend]
    assert len(set(dashes)) == 3
    assert [dash for _status, _y, dash in threshold_lines(chart.svg)] == dashes[:2]


def test_the_chart_is_named_and_described_by_its_visible_summary():
    chart = close_thresholds_chart()
    assert 'role="img" aria-label="Chart of API latency, last 24 hours"' in chart.svg
    assert 'aria-describedby="chart-1-24h-summary chart-1-24h-legend"' in chart.svg
    assert "<title>" not in chart.svg  # the summary is on the page, not in a hover tooltip


def figure(page: str, ident_prefix: str) -> str:
    match = re.search(rf'<figure class="line-chart" id="{ident_prefix}[^"]*">.*?</figure>', page, re.S)
    assert match, "no chart on the page"
    return match.group(0)


def test_component_page_chart_has_a_text_alternative_with_range_latest_and_thresholds(client, site):
    page = client.get("/components/webhook-delivery/").content.decode()
    chart = figure(page, "chart-")
    summary_id = re.search(r'aria-describedby="([^" ]+)', chart).group(1)
    summary = re.search(rf'<p class="chart-summary" id="{summary_id}">(.*?)</p>', chart, re.S).group(1)
    assert summary.startswith(
        "Webhook delivery delay, last 24 hours: from 1.6\xa0sec to 2.7\xa0sec"
    )  # hourly means
    assert "latest 1.6\xa0sec" in summary
    assert summary.endswith("; limit 60.0\xa0sec")  # the threshold it is judged against
    legend = re.search(r'<ul class="chart-legend" id="([^"]+)"', chart).group(1)
    assert re.search(rf'aria-describedby="{summary_id} {legend}"', chart)
    # The axis values carry their unit in the page's language, and start at zero.
    assert re.search(
        r'<div class="chart-y" aria-hidden="true"><span>[\d.,]+\xa0sec</span><span>0.0\xa0sec</span>', chart
    )


def test_component_page_chart_texts_are_in_russian_on_the_russian_page(client, site):
    page = client.get("/ru/components/webhook-delivery/").content.decode()
    chart = figure(page, "chart-")
    summary = re.search(r'<p class="chart-summary" id="[^"]+">(.*?)</p>', chart, re.S).group(1)
    assert "Задержка доставки вебхуков" in summary
    assert "от 1,6\xa0с до 2,7\xa0с" in summary  # Russian decimal comma and unit
    assert "0,0\xa0с" in chart  # the axis too
    # The time axis in Russian: "10 мар. 2026 г., …"
    x_axis = re.search(r'<div class="chart-x" aria-hidden="true">(.*?)</div>', chart, re.S).group(1)
    assert "мар" in x_axis
