"""Writing a postmortem: guidance per section, due dates typed as people say them, and publishing
with what is still empty in plain sight."""

import datetime as dt

import pytest

from incidents.lifecycle.commands import WritePostmortem
from incidents.lifecycle.postmortems import write_postmortem
from incidents.models import ActionItem, Postmortem

from .conftest import logged_in


@pytest.fixture
def client(responder):
    return logged_in(responder)


def add_item(client, incident, due):
    return client.post(
        f"/editor/incidents/{incident.pk}/action-items/",
        {"language": "en", "new-title": "Add a canary stage", "new-due": due, "new-state": "open"},
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("typed", "due_date", "precision"),
    [
        ("2027-03", dt.date(2027, 3, 1), "month"),
        ("Q1 2027", dt.date(2027, 1, 1), "quarter"),
        ("2027 q3", dt.date(2027, 7, 1), "quarter"),
        ("2027", dt.date(2027, 1, 1), "year"),
        ("2027-03-15", dt.date(2027, 3, 15), "day"),
    ],
)
def test_a_typed_due_date_is_read_as_a_value_and_a_precision(client, incident, typed, due_date, precision):
    assert add_item(client, incident, typed).status_code == 302
    item = ActionItem.objects.get()
    assert (item.due_date, item.due_precision) == (due_date, precision)


@pytest.mark.django_db
def test_the_form_has_no_precision_select(client, incident):
    page = client.get(f"/editor/incidents/{incident.pk}/postmortem/").content.decode()
    assert "due_precision" not in page and "Due precision" not in page


@pytest.mark.django_db
def test_a_quarter_is_shown_in_the_editors_language(responder, incident):
    english = logged_in(responder)
    add_item(english, incident, "Q1 2027")
    page = english.get(f"/editor/incidents/{incident.pk}/postmortem/").content.decode()
    assert "1st quarter 2027 (by March 31, 2027)" in page
    norwegian = logged_in(responder)
    norwegian.cookies["django_language"] = "nb"
    page = norwegian.get(f"/editor/incidents/{incident.pk}/postmortem/").content.decode()
    assert "1. kvartal 2027" in page and "31. mars 2027" in page


@pytest.mark.django_db
def test_each_section_says_what_to_write(client, incident):
    page = client.get(f"/editor/incidents/{incident.pk}/postmortem/").content.decode()
    assert "Describe systems and decisions, not people." in page
    assert page.count('data-autogrow="1"') == 6


@pytest.mark.django_db
def test_publish_is_offered_before_anything_is_written_with_every_section_listed(client, incident):
    page = client.get(f"/editor/incidents/{incident.pk}/postmortem/").content.decode()
    assert 'id="publish-postmortem"' in page
    empty = page[page.index('id="empty-sections"') :][:1200]
    assert "Summary" in empty and "What we will change" in empty
    response = client.post(f"/editor/incidents/{incident.pk}/postmortem/publish/", follow=True)
    assert "An empty postmortem cannot be published." in response.content.decode()
    assert not Postmortem.objects.exists()


@pytest.mark.django_db
def test_publishing_with_empty_sections_is_refused_with_their_names_until_confirmed(
    client, incident, responder
):
    write_postmortem(
        incident,
        WritePostmortem(language="en", sections={"summary": "It broke.", "root_cause": "A deploy."}),
        actor=responder,
    )
    url = f"/editor/incidents/{incident.pk}/postmortem/publish/"
    refused = client.post(url, follow=True).content.decode()
    assert (
        "Not published: Customer impact, Detection and response, What we changed, What we will change"
        in refused
    )
    assert not Postmortem.objects.get().is_published
    client.post(url, {"publish_with_empty_sections": "on"})
    assert Postmortem.objects.get().is_published


@pytest.mark.django_db
def test_a_complete_postmortem_publishes_without_confirmation(client, incident, responder):
    sections = {
        key: "Written."
        for key in (
            "summary",
            "customer_impact",
            "root_cause",
            "detection_and_response",
            "what_we_changed",
            "what_we_will_change",
        )
    }
    write_postmortem(incident, WritePostmortem(language="en", sections=sections), actor=responder)
    page = client.get(f"/editor/incidents/{incident.pk}/postmortem/").content.decode()
    assert "Every section is written." in page and "publish_with_empty_sections" not in page
    client.post(f"/editor/incidents/{incident.pk}/postmortem/publish/")
    assert Postmortem.objects.get().is_published


@pytest.mark.django_db
def test_the_page_offers_a_kept_draft(client, incident):
    page = client.get(f"/editor/incidents/{incident.pk}/postmortem/?language=nb").content.decode()
    assert f'data-draft-key="postmortem-draft:{incident.pk}:nb"' in page
    assert 'id="discard-draft"' in page
