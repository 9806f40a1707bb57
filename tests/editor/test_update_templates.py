"""Update templates in the editor: a title and a text per language, a status, component statuses."""

import json

import pytest

from incidents.demo.loader import demo_content
from incidents.demo.update_templates import TEMPLATES_FILE, load_update_templates
from incidents.models import UpdateTemplate
from incidents.translation import language_codes

from .conftest import logged_in


@pytest.mark.django_db
def test_a_template_keeps_titles_texts_and_component_statuses(responder, api, webhooks):
    response = logged_in(responder).post(
        "/editor/templates/new/",
        {
            "name": "API errors",
            "language": "en",
            "kind": "incident",
            "status": "identified",
            "title_en": "Elevated API errors",
            "title_nb": "Flere API-feil",
            "body_en": "Some requests fail.",
            "body_nb": "Noen forespørsler feiler.",
            "affected": ["public-api"],
            "status_public-api": "major_outage",
            "status_webhook-delivery": "degraded_performance",
        },
    )
    assert response.status_code == 302
    template = UpdateTemplate.objects.get()
    assert template.title == {"en": "Elevated API errors", "nb": "Flere API-feil"}
    assert template.body == {"en": "Some requests fail.", "nb": "Noen forespørsler feiler."}
    assert template.component_statuses == {"public-api": "major_outage"}
    page = logged_in(responder).get(f"/editor/templates/{template.pk}/").content.decode()
    assert "Flere API-feil" in page and '<option value="major_outage" selected>' in page


@pytest.mark.django_db
def test_a_template_needs_a_text_in_its_own_language(responder):
    response = logged_in(responder).post(
        "/editor/templates/new/",
        {"name": "Empty", "language": "nb", "kind": "incident", "status": "", "body_en": "Only English."},
    )
    assert response.status_code == 200
    assert "A template needs a text in the language it is written in." in response.content.decode()
    assert not UpdateTemplate.objects.exists()


def test_the_demo_templates_are_in_every_language_and_name_demo_components():
    slugs = {c["slug"] for group in demo_content()["groups"] for c in group["components"]}
    specs = json.loads(TEMPLATES_FILE.read_text(encoding="utf-8"))
    assert 4 <= len(specs) <= 6
    for spec in specs:
        assert set(spec["body"]) == set(language_codes()), spec["name"]
        assert not spec["title"] or set(spec["title"]) == set(language_codes()), spec["name"]
        assert set(spec["components"]) <= slugs, spec["name"]


@pytest.mark.django_db
def test_loading_the_demo_templates_twice_makes_them_once():
    made = load_update_templates()
    assert made == UpdateTemplate.objects.count() >= 4
    assert load_update_templates() == 0
