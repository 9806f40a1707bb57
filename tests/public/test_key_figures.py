"""A postmortem's key figures read above its text, each value in the language its text is
shown in ("23 мин" inside a Russian postmortem, even on an English page)."""

import datetime as dt

import pytest

from incidents.formatting import format_key_figure
from incidents.lifecycle.commands import DeclareIncident, ResolveIncident, WritePostmortem
from incidents.lifecycle.opening import declare_incident
from incidents.lifecycle.postmortems import publish_postmortem, write_postmortem
from incidents.lifecycle.updates import resolve_incident

pytestmark = pytest.mark.django_db

STARTED = dt.datetime(2025, 9, 12, 8, 41, tzinfo=dt.UTC)
FIGURES = [
    {"label": "Peak webhook delay", "value": 1380, "unit": "duration"},
    {"label": "Third-party timeout", "value": 10, "unit": "duration"},
    {"label": "Deliveries on time", "value": 99.2, "unit": "percent"},
    {"label": "Queue backlog", "value": 1.5e9, "unit": "bytes"},
    {"label": "Peak load", "value": 1200, "unit": "requests_per_second"},
]


def incident_with_postmortem(admin, language: str, summary: str, labels: list[str]):
    incident = declare_incident(
        DeclareIncident(title="Webhook delays", language=language, body=summary, started_at=STARTED),
        actor=admin,
    )
    resolve_incident(
        incident,
        ResolveIncident(
            body={language: summary}, language=language, display_at=STARTED + dt.timedelta(hours=1)
        ),
        actor=admin,
    )
    postmortem = write_postmortem(
        incident, WritePostmortem(language=language, sections={"summary": summary}), actor=admin
    )
    figures = [{**figure, "label": label} for figure, label in zip(FIGURES, labels, strict=True)]
    write_postmortem(incident, WritePostmortem(language=language, key_figures=figures), actor=admin)
    publish_postmortem(postmortem, actor=admin)
    return incident


@pytest.fixture
def english(admin):
    return incident_with_postmortem(
        admin, "en", "The queue stalled.", [figure["label"] for figure in FIGURES]
    )


@pytest.fixture
def russian(admin):
    labels = [
        "Пиковая задержка вебхуков",
        "Тайм-аут партнёра",
        "Доставлено вовремя",
        "Очередь",
        "Пик нагрузки",
    ]
    return incident_with_postmortem(admin, "ru", "Очередь застряла на 16\u00a0минут.", labels)


def page(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def figure_list(html: str) -> str:
    start = html.index('<dl class="key-figures">')
    return html[start : html.index("</dl>", start)]


def test_an_english_postmortem_shows_its_figures_above_its_text(client, english):
    html = page(client, f"/incidents/{english.slug}/")
    figures = figure_list(html)
    assert html.index('<dl class="key-figures">') < html.index("The queue stalled.", html.index("postmortem"))
    assert "<dt>Peak webhook delay</dt>" in figures
    assert ">23 min</dd>" in figures
    assert ">10 sec</dd>" in figures
    assert ">99.2 %</dd>" in figures
    assert ">1.5 GB</dd>" in figures
    assert ">1,200 req/s</dd>" in figures


@pytest.mark.parametrize(
    ("prefix", "label"),
    [("/ru", "<dt>Пиковая задержка вебхуков</dt>"), ("", '<dt lang="ru">Пиковая задержка вебхуков</dt>')],
    ids=["russian page", "english page"],
)
def test_a_russian_postmortem_shows_russian_figures_on_any_page(client, russian, prefix, label):
    figures = figure_list(page(client, f"{prefix}/incidents/{russian.slug}/"))
    assert label in figures
    assert '<dd lang="ru">23 мин</dd>' in figures
    assert '<dd lang="ru">10 с</dd>' in figures
    assert '<dd lang="ru">99,2 %</dd>' in figures
    assert '<dd lang="ru">1,5 ГБ</dd>' in figures
    assert "23 min" not in figures


def test_an_english_postmortem_keeps_english_figures_on_a_russian_page(client, english):
    figures = figure_list(page(client, f"/ru/incidents/{english.slug}/"))
    assert '<dd lang="en">23 min</dd>' in figures
    assert "мин" not in figures


def test_a_postmortem_without_figures_shows_no_list(client, admin):
    incident = declare_incident(
        DeclareIncident(title="Blip", language="en", body="Short.", started_at=STARTED), actor=admin
    )
    postmortem = write_postmortem(
        incident, WritePostmortem(language="en", sections={"summary": "Short."}), actor=admin
    )
    publish_postmortem(postmortem, actor=admin)
    assert "key-figures" not in page(client, f"/incidents/{incident.slug}/")


@pytest.mark.parametrize(
    ("value", "unit", "language", "expected"),
    [
        (1380, "duration", "en", "23 min"),
        (1380, "duration", "ru", "23 мин"),
        (10, "duration", "ru", "10 с"),
        (3900, "duration", "en", "1 hr, 5 min"),
        (99.2, "percent", "en", "99.2 %"),
        (1.5e9, "bytes", "en", "1.5 GB"),
        (2_500_000, "bytes", "nb", "2,5 MB"),
        (1200, "requests_per_second", "en", "1,200 req/s"),
        (12345, "count", "es", "12.345"),
    ],
)
def test_each_unit_is_formatted_per_language(value, unit, language, expected):
    assert format_key_figure(value, unit, language) == expected
