"""The editor's incident screen on a phone-sized budget: one language at a time, the trail in words."""

import re

import pytest

from incidents.lifecycle.commands import PostUpdate
from incidents.lifecycle.updates import post_update

from .conftest import logged_in


@pytest.fixture
def translated_update(incident, responder):
    return post_update(
        incident,
        PostUpdate(
            status="identified",
            body={"en": "A bad deploy.", "ru": "Неудачный выпуск.", "nb": "En feilslått utrulling."},
            language="en",
        ),
        actor=responder,
    )


def timeline_entry(page: str, text: str) -> str:
    start = page.rindex('<li class="update">', 0, page.index(text))
    return page[start : page.index("</li>", page.index(text))]


@pytest.mark.django_db
def test_an_update_shows_the_editors_language_and_folds_the_others_away(
    responder, incident, translated_update
):
    page = logged_in(responder).get(f"/editor/incidents/{incident.pk}/").content.decode()
    entry = timeline_entry(page, "A bad deploy.")
    shown, folded = entry.split("<details>", 1)
    assert "A bad deploy." in shown
    assert "Неудачный выпуск." not in shown and "En feilslått utrulling." not in shown
    assert "Неудачный выпуск." in folded and "En feilslått utrulling." in folded
    assert re.search(
        r'<summary>Other languages: <span lang="nb">Norsk bokmål</span>, <span lang="ru">Русский</span></summary>',
        folded,
    )


@pytest.mark.django_db
def test_each_text_of_an_update_is_corrected_from_a_link_named_by_its_language(
    responder, incident, translated_update
):
    page = logged_in(responder).get(f"/editor/incidents/{incident.pk}/").content.decode()
    links = timeline_entry(page, "A bad deploy.").split('class="edit-links"', 1)[1].split("</p>", 1)[0]
    edit_ru = f"/editor/updates/{translated_update.pk}/ru/"
    assert f'<a href="{edit_ru}" lang="ru">Русский</a>' in links
    assert ">English</a>" in links and ">Español</a>" in links and ">Norsk bokmål</a>" in links


@pytest.mark.django_db
def test_an_editor_reading_russian_sees_the_russian_text_first(responder, incident, translated_update):
    client = logged_in(responder)
    client.cookies["django_language"] = "ru"
    page = client.get(f"/editor/incidents/{incident.pk}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    shown = timeline_entry(page, "Неудачный выпуск.").split("<details>", 1)[0]
    assert "Неудачный выпуск." in shown and "A bad deploy." not in shown


@pytest.mark.django_db
def test_an_update_in_one_language_has_nothing_to_fold(responder, incident):
    page = logged_in(responder).get(f"/editor/incidents/{incident.pk}/").content.decode()
    assert "We are investigating." in page and "Other languages" not in page


@pytest.mark.django_db
def test_the_post_update_form_comes_before_the_timeline(responder, incident):
    page = logged_in(responder).get(f"/editor/incidents/{incident.pk}/").content.decode()
    assert page.index('id="update-form"') < page.index('id="timeline"')


@pytest.mark.django_db
def test_the_incidents_trail_is_in_words_and_folded(responder, incident, translated_update):
    page = logged_in(responder).get(f"/editor/incidents/{incident.pk}/").content.decode()
    trail = page[page.index('id="audit-heading"') :]
    assert '<details class="incident-audit">' in trail
    assert "Update posted on Elevated API errors: Identified" in trail
    assert "Public API: Operational → Partial outage" in trail
    assert "{&#x27;" not in trail and "{'" not in trail and "update.posted" not in trail
