"""A record reads in long CLDR forms: the window's full date, quarters written out, and the
dates inside a postmortem in the postmortem's language while the page's chrome stays the
reader's."""

import datetime as dt

import pytest

from incidents.lifecycle.commands import DeclareIncident, ResolveIncident, WritePostmortem
from incidents.lifecycle.opening import declare_incident
from incidents.lifecycle.postmortems import publish_postmortem, save_action_item, write_postmortem
from incidents.lifecycle.updates import resolve_incident
from incidents.models import ActionItem

pytestmark = pytest.mark.django_db

STARTED = dt.datetime(2025, 9, 12, 8, 41, tzinfo=dt.UTC)  # 10:41 in Oslo


@pytest.fixture
def russian_record(admin):
    incident = declare_incident(
        DeclareIncident(
            title="Задержка вебхуков",
            language="ru",
            body="Вебхуки доставлялись с задержкой до 23\u00a0мин.",
            started_at=STARTED,
        ),
        actor=admin,
    )
    resolve_incident(
        incident,
        ResolveIncident(
            body={"ru": "Доставка восстановлена."}, language="ru", display_at=STARTED + dt.timedelta(hours=1)
        ),
        actor=admin,
    )
    postmortem = write_postmortem(
        incident,
        WritePostmortem(language="ru", sections={"summary": "Очередь застряла на 16\u00a0минут."}),
        actor=admin,
    )
    publish_postmortem(postmortem, actor=admin)
    save_action_item(
        ActionItem(
            postmortem=postmortem,
            title={"ru": "Тревога по возрасту очереди"},
            due_date=dt.date(2024, 10, 1),
            due_precision="quarter",
        ),
        actor=admin,
    )
    save_action_item(
        ActionItem(
            postmortem=postmortem, title={"ru": "Разбор"}, due_date=dt.date(2025, 7, 13), due_precision="day"
        ),
        actor=admin,
    )
    return incident


def page(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_the_window_shows_its_full_date(client, russian_record):
    assert "12. september 2025" in page(client, f"/nb/incidents/{russian_record.slug}/")
    assert "12 de septiembre de 2025" in page(client, f"/es/incidents/{russian_record.slug}/")
    assert "12 сентября 2025\u202fг." in page(client, f"/ru/incidents/{russian_record.slug}/")


def test_quarter_due_dates_are_written_out(client, russian_record):
    assert "4-й квартал 2024\u202fг." in page(client, f"/ru/incidents/{russian_record.slug}/")
    assert "4-й кв." not in page(client, f"/ru/incidents/{russian_record.slug}/")


def test_due_dates_in_a_postmortem_are_in_its_language_on_a_page_in_another(client, russian_record):
    html = page(client, f"/es/incidents/{russian_record.slug}/")
    assert 'lang="ru">4-й квартал 2024\u202fг.</time>' in html
    assert 'lang="ru">13 июля 2025\u202fг.</time>' in html
    assert "trimestre" not in html and "13 de julio" not in html
    # The chrome stays the reader's.
    assert "Tareas" in html and "Задачи" not in html


def test_a_day_due_date_reads_in_full(client, admin):
    incident = declare_incident(
        DeclareIncident(title="Retraso", language="es", body="Investigando.", started_at=STARTED), actor=admin
    )
    postmortem = write_postmortem(
        incident, WritePostmortem(language="es", sections={"summary": "Un retraso."}), actor=admin
    )
    publish_postmortem(postmortem, actor=admin)
    save_action_item(
        ActionItem(
            postmortem=postmortem, title={"es": "Alerta"}, due_date=dt.date(2018, 7, 13), due_precision="day"
        ),
        actor=admin,
    )
    html = page(client, f"/es/incidents/{incident.slug}/")
    assert "13 de julio de 2018" in html and "13 jul 2018" not in html
