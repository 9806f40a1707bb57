"""Real postmortems, written in Russian, Spanish and Norwegian Bokmål, entered through /api/v1/
with a token as a team moving its history here would, and judged on the pages, history, feeds,
mails and the API: texts byte for byte, times in each incident's own zone, durations, record mode,
long due dates, and one imported from a Statuspage export."""

import html

import feedparser
import pytest
from django.core import mail
from rest_framework.test import APIClient

from incidents.channels import outbox
from incidents.models import Component, Delivery, TokenScope
from incidents.services.api_tokens import issue_token
from incidents.services.subscriptions import confirm_subscription, subscribe

pytestmark = pytest.mark.django_db

NBSP = "\u00a0"


@pytest.fixture
def api(admin):
    _token, secret = issue_token(admin, name="history", scope=TokenScope.READ_WRITE, actor=admin)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    return client


@pytest.fixture
def webhooks(db):
    return Component.objects.create(
        slug="webhooks", name={"ru": "Вебхуки", "es": "Webhooks", "nb": "Webhooker"}, position=1
    )


@pytest.fixture
def subscriber(webhooks):
    return confirm_subscription(subscribe(email="ops@example.com", language="ru", send_mail=False).subscriber)


def ok(response, status=200) -> dict:
    assert response.status_code == status, response.content.decode()
    return response.json()


def enter(api, incident: dict, updates: list[dict], resolution: dict, postmortem: dict, items=()) -> dict:
    """Declares, posts the updates, resolves, writes and publishes the postmortem; the API's view."""
    created = ok(api.post("/api/v1/incidents/", incident, format="json"), 201)
    url = f"/api/v1/incidents/{created['id']}/"
    for update in updates:
        ok(api.post(f"{url}updates/", update, format="json"), 201)
    ok(api.post(f"{url}resolve/", resolution, format="json"))
    written = ok(
        api.post(
            "/api/v1/postmortems/",
            {
                "incident": created["id"],
                "language": postmortem["language"],
                "sections": postmortem["sections"],
            },
            format="json",
        ),
        201,
    )
    for item in items:
        ok(api.post("/api/v1/action-items/", {"postmortem": written["id"], **item}, format="json"), 201)
    ok(
        api.post(
            f"/api/v1/postmortems/{written['id']}/publish/",
            {"published_at": postmortem["published_at"]},
            format="json",
        )
    )
    return ok(api.get(url))


def page(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def shown(text: str, html_text: str) -> bool:
    """Whether `text` appears on the page exactly, once HTML's own escapes are undone."""
    return text in html.unescape(html_text)


# --- Russian: written in Moscow time, across midnight, entered as a record with quarter due dates

RU_TITLE = "Задержка доставки вебхуков — «очередь встала»"
RU_FIRST = f"Вебхуки доставляются с задержкой до 23{NBSP}мин. Разбираемся – подробности позже."
RU_IDENTIFIED = (
    f"Нашли причину: обработчик очереди «webhooks-out» завис на ядовитом сообщении в 00:20{NBSP}МСК."
)
RU_RESOLVED = "Очередь разобрана, задержки нет — доставка в норме."
RU_SUMMARY = (
    f"13{NBSP}сентября с 00:10 до 01:10 по Москве вебхуки доставлялись с задержкой до 23{NBSP}мин. "
    "Причина — «ядовитое» сообщение, на котором завис обработчик."
)
RU_ROOT_CAUSE = f"Обработчик не ограничивал число повторов — сообщение крутилось 16{NBSP}минут."
# 00:10 to 01:10 on 13 September 2024 in Moscow (UTC+3): 23:10 to 00:10 in Oslo, across its midnight.
RU_START = "2024-09-13T00:10:00+03:00"


@pytest.fixture
def russian_record(api, webhooks, subscriber):
    return enter(
        api,
        {
            "title": RU_TITLE,
            "language": "ru",
            "body": RU_FIRST,
            "impact": "major",
            "components": [{"component": webhooks.public_id, "status": "degraded_performance"}],
            "started_at": RU_START,
            "display_time_zone": "Europe/Moscow",
            "backfilled": True,
        },
        [
            {
                "status": "identified",
                "language": "ru",
                "body": RU_IDENTIFIED,
                "display_at": "2024-09-13T00:20:00+03:00",
            }
        ],
        {"language": "ru", "body": RU_RESOLVED, "display_at": "2024-09-13T01:10:00+03:00"},
        {
            "language": "ru",
            "sections": {"summary": RU_SUMMARY, "root_cause": RU_ROOT_CAUSE},
            "published_at": "2024-09-20T12:00:00+03:00",
        },
        [
            {
                "title": {"ru": "Ограничить повторы обработчика"},
                "due_date": "2024-10-01",
                "due_precision": "quarter",
            },
            {
                "title": {"ru": "Тревога по возрасту очереди"},
                "due_date": "2025-01-01",
                "due_precision": "quarter",
            },
        ],
    )


def test_russian_record_texts_come_back_byte_for_byte(russian_record, api, client):
    bodies = [update["body"]["ru"] for update in russian_record["updates"]]
    postmortem = ok(api.get(f"/api/v1/postmortems/?incident={russian_record['id']}"))["results"][0]
    html_page = page(client, f"/ru/incidents/{russian_record['slug']}/")

    assert russian_record["title"] == {"ru": RU_TITLE}
    assert sorted(bodies) == sorted([RU_FIRST, RU_IDENTIFIED, RU_RESOLVED])
    assert postmortem["sections"]["summary"] == {"ru": RU_SUMMARY}
    assert postmortem["sections"]["root_cause"] == {"ru": RU_ROOT_CAUSE}
    for text in (RU_TITLE, RU_FIRST, RU_IDENTIFIED, RU_RESOLVED, RU_SUMMARY, RU_ROOT_CAUSE):
        assert shown(text, html_page), text


def test_russian_record_shows_moscow_times_on_their_own_day(russian_record, client):
    html_page = html.unescape(page(client, f"/ru/incidents/{russian_record['slug']}/"))

    assert russian_record["display_time_zone"] == "Europe/Moscow"
    assert russian_record["started_at"] == "2024-09-12T21:10:00Z"  # the API speaks UTC
    assert f"13 сент. 2024{chr(0x202F)}г., 00:10 GMT+03:00" in html_page
    assert "01:10 GMT+03:00" in html_page
    assert "23:10" not in html_page  # the Oslo time of its start


def test_russian_record_lasts_an_hour_on_the_page_history_feed_and_api(russian_record, client):
    assert russian_record["duration_seconds"] == 3600
    assert '<span class="duration">1 ч</span>' in page(client, "/ru/history/")
    assert "1 ч" in page(client, f"/ru/incidents/{russian_record['slug']}/")
    feed = feedparser.parse(client.get("/ru/history.atom").content)
    assert any("1 ч" in entry.summary for entry in feed.entries)


def test_russian_record_sends_no_mail_and_is_published_when_it_was(russian_record, api, webhooks):
    outbox.deliver_due(seconds=5)
    postmortem = ok(api.get(f"/api/v1/postmortems/?incident={russian_record['id']}"))["results"][0]
    webhooks.refresh_from_db()

    assert russian_record["backfilled"] is True
    assert Delivery.objects.count() == 0 and mail.outbox == []
    assert webhooks.status == "operational"
    assert postmortem["published_at"].startswith("2024-09-20")


def test_russian_record_writes_its_quarters_out(russian_record, client):
    html_page = page(client, f"/ru/incidents/{russian_record['slug']}/")

    assert f"4-й квартал 2024{chr(0x202F)}г." in html_page
    assert f"1-й квартал 2025{chr(0x202F)}г." in html_page
    assert "кв." not in html_page.replace("квартал", "")
    # On a Spanish page, the Russian postmortem's due dates stay Russian.
    assert f"4-й квартал 2024{chr(0x202F)}г." in page(client, f"/es/incidents/{russian_record['slug']}/")


# --- Spanish: written in Madrid time, over three days, action items due in a month and a year

ES_TITLE = "Caída parcial del panel — ¿por qué tardó tanto?"
ES_FIRST = f"El panel responde con errores intermitentes. Estamos investigando{NBSP}– más información pronto."
ES_NOTE = "Nota: el despliegue de las 22:40 del 5 de marzo tocó la configuración del balanceador."
ES_RESOLVED = "¡Resuelto! El panel funciona con normalidad desde las 06:12."
ES_SUMMARY = (
    "¿Qué pasó? Del 5 al 7 de marzo el panel falló de forma intermitente durante 31 h 12 min. "
    f"La causa fue un límite de conexiones de 2{NBSP}000 en el balanceador — demasiado bajo."
)
# 23:00 on 5 March to 06:12 on 7 March 2025, Madrid time (UTC+1).
ES_START = "2025-03-05T23:00:00+01:00"


@pytest.fixture
def spanish_incident(api, webhooks):
    return enter(
        api,
        {
            "title": ES_TITLE,
            "language": "es",
            "body": ES_FIRST,
            "started_at": ES_START,
            "display_time_zone": "Europe/Madrid",
            "backfilled": True,
        },
        [
            {
                "status": None,
                "language": "es",
                "body": ES_NOTE,
                "display_at": "2025-03-05T22:40:00+01:00",
            },
            {
                "status": "identified",
                "language": "es",
                "body": "Identificado.",
                "display_at": "2025-03-06T10:00:00+01:00",
            },
        ],
        {"language": "es", "body": ES_RESOLVED, "display_at": "2025-03-07T06:12:00+01:00"},
        {
            "language": "es",
            "sections": {"summary": ES_SUMMARY},
            "published_at": "2025-03-10T09:00:00+01:00",
        },
        [
            {"title": {"es": "Subir el límite"}, "due_date": "2025-04-01", "due_precision": "month"},
            {"title": {"es": "Revisar la capacidad"}, "due_date": "2025-01-01", "due_precision": "year"},
        ],
    )


def test_spanish_incident_spans_days_in_its_own_zone(spanish_incident, client):
    html_page = html.unescape(page(client, f"/es/incidents/{spanish_incident['slug']}/"))

    assert spanish_incident["duration_seconds"] == 31 * 3600 + 12 * 60
    assert "1 d, 7 h, 12 min" in html_page
    assert '<span class="duration">1 d, 7 h, 12 min</span>' in page(client, "/es/history/")
    assert "5 mar 2025, 23:00 GMT+01:00" in html_page
    assert "7 mar 2025, 6:12 GMT+01:00" in html_page
    for text in (ES_TITLE, ES_FIRST, ES_NOTE, ES_RESOLVED, ES_SUMMARY):
        assert text in html_page, text


def test_spanish_context_event_is_not_a_status(spanish_incident):
    note = next(update for update in spanish_incident["updates"] if update["body"] == {"es": ES_NOTE})

    assert note["status"] is None
    assert note["display_at"] == "2025-03-05T21:40:00Z"


def test_spanish_month_and_year_due_dates_are_written_out(spanish_incident, client):
    html_page = page(client, f"/es/incidents/{spanish_incident['slug']}/")

    assert "abril de 2025" in html_page
    assert "Revisar la capacidad" in html_page


# --- Norwegian Bokmål: written in UTC in 2018, a paragraph that starts with a date


NB_TITLE = "Treg innlogging på æøå-domener – «hvorfor?»"
NB_FIRST = f"Innlogging tar opptil 10{NBSP}s for brukere med æ, ø og å i domenet."
NB_SUMMARY = (
    "12. september mellom 10:41 og 11:41 feilet innlogging for domener med æ, ø og å — "
    f"en tredjepart svarte ikke innen 10{NBSP}s."
)


@pytest.fixture
def norwegian_incident(api):
    return enter(
        api,
        {
            "title": NB_TITLE,
            "language": "nb",
            "body": NB_FIRST,
            "started_at": "2018-09-12T10:41:00Z",
            "display_time_zone": "UTC",
            "backfilled": True,
        },
        [],
        {"language": "nb", "body": "Løst.", "display_at": "2018-09-12T11:41:00Z"},
        {"language": "nb", "sections": {"summary": NB_SUMMARY}, "published_at": "2018-09-14T08:00:00Z"},
        [{"title": {"nb": "Kortere tidsavbrudd"}, "due_date": "2018-10-01", "due_precision": "month"}],
    )


def test_norwegian_incident_reads_as_written_in_utc(norwegian_incident, client):
    html_page = html.unescape(page(client, f"/nb/incidents/{norwegian_incident['slug']}/"))

    assert norwegian_incident["title"] == {"nb": NB_TITLE}
    assert NB_FIRST in html_page and NB_SUMMARY in html_page
    assert "12. sep. 2018, 10:41" in html_page
    assert "12:41" not in html_page  # the Oslo time of its start
    assert "1 t" in html_page and norwegian_incident["duration_seconds"] == 3600
    assert "<ol" not in html_page.split("12. september mellom")[0][-200:]


def test_norwegian_postmortem_keeps_its_2018_publication_time(norwegian_incident, api, client):
    postmortem = ok(api.get(f"/api/v1/postmortems/?incident={norwegian_incident['id']}"))["results"][0]

    assert postmortem["published_at"].startswith("2018-09-14")
    published = page(client, f"/nb/incidents/{norwegian_incident['slug']}/").split("postmortem-published")[1]
    assert published.split("</p>")[0].endswith(
        '<time datetime="2018-09-14T08:00:00Z" data-local="datetime">14. sep. 2018, 08:00 GMT+00:00</time>'
    )


# --- Imported from a Statuspage export

STATUSPAGE_EXPORT = {
    "page": {
        "id": "k3v9x2m7q1zt",
        "name": "Acme",
        "url": "https://status.acme.example",
        "time_zone": "Etc/UTC",
    },
    "incidents": [
        {
            "id": "p8k2m4n6q1rt",
            "name": "Forsinket levering av webhooker",
            "status": "resolved",
            "impact": "minor",
            "created_at": "2026-10-03T18:02:00.000Z",
            "updated_at": "2026-10-03T19:02:00.000Z",
            "started_at": "2026-10-03T18:00:00.000Z",
            "monitoring_at": None,
            "resolved_at": "2026-10-03T19:00:00.000Z",
            "page_id": "k3v9x2m7q1zt",
            "incident_updates": [
                {
                    "id": "u1a2b3c4d5e6",
                    "status": "resolved",
                    "body": "Leveringen er tilbake – køen er tømt.",
                    "created_at": "2026-10-03T19:00:00.000Z",
                    "updated_at": "2026-10-03T19:00:00.000Z",
                    "display_at": "2026-10-03T19:00:00.000Z",
                    "affected_components": None,
                },
                {
                    "id": "u7f8g9h0i1j2",
                    "status": "investigating",
                    "body": f"Webhooker leveres med opptil 23{NBSP}min forsinkelse. Vi undersøker «køen».",
                    "created_at": "2026-10-03T18:02:00.000Z",
                    "updated_at": "2026-10-03T18:02:00.000Z",
                    "display_at": "2026-10-03T18:02:00.000Z",
                    "affected_components": None,
                },
            ],
            "components": [],
        }
    ],
}


def test_a_statuspage_export_arrives_with_its_updates_and_times(api, client):
    result = ok(api.post("/api/v1/imports/statuspage/?language=nb", STATUSPAGE_EXPORT, format="json"))
    again = ok(api.post("/api/v1/imports/statuspage/?language=nb", STATUSPAGE_EXPORT, format="json"))
    [incident] = ok(api.get("/api/v1/incidents/"))["results"]
    html_page = html.unescape(page(client, f"/nb/incidents/{incident['slug']}/"))

    assert (result["incidents_created"], result["updates_created"]) == (1, 2)
    assert again["incidents_created"] == 0 and again["incidents_skipped"] == 1
    assert incident["backfilled"] is True and incident["duration_seconds"] == 3600
    assert [(u["status"], u["display_at"][:16]) for u in incident["updates"]] == [
        ("resolved", "2026-10-03T19:00"),
        ("investigating", "2026-10-03T18:02"),
    ]
    for update in STATUSPAGE_EXPORT["incidents"][0]["incident_updates"]:
        assert update["body"] in html_page
    # The page's zone (Oslo, UTC+2 in October): 20:02 and 21:00.
    assert "20:02" in html_page and "21:00" in html_page
