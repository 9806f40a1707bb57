"""A postmortem's key figures through the API: written with its text, read back with their
labels per language, refused with the field and the figure's index named, and audited."""

import pytest
from django.test import Client

from incidents.models import AuditEvent, KeyFigure
from tests.conftest import database_rows
from tests.hostile.conftest import assert_api_refused

pytestmark = pytest.mark.django_db

FIGURES = [
    {"label": "Peak webhook delay", "value": 1380, "unit": "duration"},
    {"label": "Third-party timeout", "value": 10, "unit": "duration"},
    {"label": "Deliveries on time", "value": 99.2, "unit": "percent"},
    {"label": "Queue backlog", "value": 1.5e9, "unit": "bytes"},
    {"label": "Peak load", "value": 1200, "unit": "requests_per_second"},
]


@pytest.fixture
def writer(client_as):
    return client_as("write_token")


def create(writer, page, **extra):
    body = {
        "incident": page["resolved"].public_id,
        "language": "en",
        "sections": {"summary": "The queue stalled."},
        **extra,
    }
    return writer.post("/api/v1/postmortems/", body, format="json")


def test_key_figures_round_trip(writer, page):
    response = create(writer, page, key_figures=FIGURES)
    assert response.status_code == 201, response.content
    read = writer.get(f"/api/v1/postmortems/{response.json()['id']}/").json()
    assert read["key_figures"] == [
        {"label": {"en": figure["label"]}, "value": figure["value"], "unit": figure["unit"]}
        for figure in FIGURES
    ]


def test_a_translation_adds_labels_and_keeps_the_others(writer, page):
    postmortem = create(writer, page, key_figures=FIGURES[:1]).json()
    response = writer.patch(
        f"/api/v1/postmortems/{postmortem['id']}/",
        {
            "language": "ru",
            "sections": {"summary": "Очередь застряла."},
            "key_figures": [{"label": "Пиковая задержка вебхуков", "value": 1380, "unit": "duration"}],
        },
        format="json",
    )
    assert response.status_code == 200, response.content
    assert response.json()["key_figures"][0]["label"] == {
        "en": "Peak webhook delay",
        "ru": "Пиковая задержка вебхуков",
    }


def test_a_write_without_key_figures_leaves_them_alone(writer, page):
    postmortem = create(writer, page, key_figures=FIGURES).json()
    response = writer.patch(
        f"/api/v1/postmortems/{postmortem['id']}/",
        {"language": "en", "sections": {"summary": "Rewritten."}},
        format="json",
    )
    assert response.status_code == 200
    assert len(response.json()["key_figures"]) == len(FIGURES)


def test_changing_key_figures_is_audited(writer, page):
    create(writer, page, key_figures=FIGURES[:2])
    event = AuditEvent.objects.get(action="postmortem.key_figures_changed")
    assert [figure["value"] for figure in event.after["key_figures"]] == [1380, 10]
    assert event.incident == page["resolved"]


def test_key_figures_show_on_the_published_page(writer, page):
    postmortem = create(writer, page, key_figures=FIGURES).json()
    writer.post(f"/api/v1/postmortems/{postmortem['id']}/publish/", {}, format="json")
    html = Client().get(f"/ru/incidents/{page['resolved'].slug}/").content.decode()
    assert '<dd lang="en">23 min</dd>' in html


@pytest.mark.parametrize(
    ("figure", "named"),
    [
        ({"label": "Delay", "value": 1, "unit": "furlongs"}, "unit"),
        ({"label": "Delay", "value": "NaN", "unit": "duration"}, "value"),
        ({"label": "Delay", "value": "Infinity", "unit": "count"}, "value"),
        ({"label": "Delay", "value": -5, "unit": "duration"}, "value"),
        ({"label": "Backlog", "value": -1, "unit": "bytes"}, "value"),
        ({"label": "", "value": 1, "unit": "count"}, "label"),
        ({"label": "   ", "value": 1, "unit": "count"}, "label"),
        ({"label": "x" * 201, "value": 1, "unit": "count"}, "label"),
        ({"label": "Delay", "value": True, "unit": "duration"}, "value"),
        ({"label": "Delay", "value": 1e300, "unit": "count"}, "value"),
        ({"label": "Delay", "unit": "count"}, "value"),
        ({"label": "Delay", "value": 1, "unit": "count", "colour": "red"}, "colour"),
    ],
)
def test_bad_figures_are_refused_naming_the_field_and_index(writer, page, figure, named):
    before = database_rows()
    response = create(writer, page, key_figures=[FIGURES[0], figure])
    assert_api_refused(response, "key_figures")
    errors = response.json()["key_figures"]
    assert "1" in errors and named in str(errors["1"]), errors
    assert database_rows() == before


def test_more_than_twenty_figures_are_refused(writer, page):
    before = database_rows()
    response = create(writer, page, key_figures=FIGURES * 5)
    assert_api_refused(response, "key_figures")
    assert database_rows() == before
    assert not KeyFigure.objects.exists()


def test_key_figures_are_in_the_openapi_schema(client_as):
    schema = Client().get("/api/schema/?format=json").json()
    write = schema["components"]["schemas"]["PostmortemCreateRequest"]["properties"]["key_figures"]
    assert write["maxItems"] == 20
    figure = schema["components"]["schemas"]["KeyFigureRequest"]["properties"]
    assert set(figure) == {"label", "value", "unit"}
    assert "key_figures" in schema["components"]["schemas"]["Postmortem"]["properties"]
