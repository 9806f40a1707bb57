"""Incidents with titles in Cyrillic or Greek get slugs a reader can make sense of, and an
incident's address never changes."""

import pytest

from incidents.lifecycle.commands import DeclareIncident, EditIncident
from incidents.lifecycle.edits import edit_incident
from incidents.lifecycle.opening import declare_incident
from incidents.lifecycle.slugs import transliterate
from incidents.models import Incident

pytestmark = pytest.mark.django_db


def test_a_russian_title_gives_a_latin_slug_and_its_page_answers(client, admin):
    incident = declare_incident(
        DeclareIncident(title="Задержка доставки вебхуков 3 октября", language="ru", body="Ищем причину."),
        actor=admin,
    )
    assert incident.slug.endswith("-zaderzhka-dostavki-vebkhukov-3-oktiabria")
    assert client.get(f"/incidents/{incident.slug}/").status_code == 200


def test_a_greek_title_gives_a_latin_slug(admin):
    incident = declare_incident(
        DeclareIncident(title="Διακοπή υπηρεσίας", language="en", body="Looking."), actor=admin
    )
    assert incident.slug.endswith("-diakopi-ypiresias")


def test_norwegian_letters_keep_their_sound(admin):
    incident = declare_incident(
        DeclareIncident(title="Tjenesten går sakte på Bø", language="nb", body="Ser på det."), actor=admin
    )
    assert incident.slug.endswith("-tjenesten-gar-sakte-pa-bo")


def test_an_existing_slug_stays_when_the_title_changes(client, admin):
    incident = declare_incident(DeclareIncident(title="Сбой", language="ru", body="Ищем."), actor=admin)
    old_slug = incident.slug
    Incident.objects.filter(pk=incident.pk).update(slug="2026-10-03-20-60")
    incident.refresh_from_db()
    edit_incident(
        incident, EditIncident(title={"ru": "Сбой API"}, expected_version=incident.version), actor=admin
    )
    assert Incident.objects.get(pk=incident.pk).slug == "2026-10-03-20-60" != old_slug
    assert client.get("/incidents/2026-10-03-20-60/").status_code == 200


def test_capitals_and_other_scripts_are_kept_as_they_are():
    assert transliterate("Щука, Ёж — 東京") == "Shchuka, Ezh — 東京"
