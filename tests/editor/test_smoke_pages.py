"""Every editor page renders, in each of the four languages."""

import pytest

from incidents.models import UpdateTemplate


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "ru", "es", "nb"])
def test_every_page_renders_for_an_admin_in_each_language(
    clients, incident, draft, action_item, metric, language
):
    template = UpdateTemplate.objects.create(
        name="Investigating", language="en", body={"en": "Looking into it."}
    )
    update = incident.updates.first()
    urls = [
        "/editor/",
        "/editor/audit/",
        "/editor/audit/?subject_type=incident&subject_id=1&actor=rita",
        "/editor/action-items/",
        "/editor/action-items/?sort=owner&overdue=1",
        "/editor/incidents/new/",
        "/editor/maintenance/new/",
        f"/editor/incidents/{incident.pk}/",
        f"/editor/incidents/{incident.pk}/?template={template.pk}",
        f"/editor/incidents/{draft.pk}/",
        f"/editor/incidents/{incident.pk}/edit/",
        f"/editor/updates/{update.pk}/en/",
        f"/editor/incidents/{incident.pk}/postmortem/",
        f"/editor/incidents/{incident.pk}/postmortem/?language=nb",
        f"/editor/incidents/{draft.pk}/postmortem/",
        "/editor/templates/",
        f"/editor/templates/{template.pk}/",
        "/editor/components/",
        "/editor/components/new/",
        f"/editor/components/{metric.component_id}/",
        f"/editor/components/{metric.component_id}/metrics/new/",
        f"/editor/metrics/{metric.pk}/",
        "/editor/groups/new/",
        "/editor/users/",
        "/editor/login/",
    ]
    client = clients["admin"]
    client.cookies["django_language"] = language
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        assert f'<html lang="{language}">'.encode() in response.content


@pytest.mark.django_db
def test_the_language_switch_changes_the_editor_language(clients):
    client = clients["viewer"]
    response = client.post("/i18n/setlang/", {"language": "nb", "next": "/editor/action-items/"})
    assert response["Location"] == "/editor/action-items/"
    page = client.get("/editor/action-items/")
    assert b'<html lang="nb">' in page.content
    assert page["Content-Language"] == "nb"


@pytest.mark.django_db
def test_the_browser_language_is_used_without_a_choice(clients):
    page = clients["viewer"].get("/editor/", headers={"accept-language": "es"})
    assert b'<html lang="es">' in page.content


@pytest.mark.django_db
def test_editor_pages_are_not_cached(clients, draft):
    response = clients["viewer"].get(f"/editor/incidents/{draft.pk}/")
    assert "no-store" in response["Cache-Control"] and "private" in response["Cache-Control"]
