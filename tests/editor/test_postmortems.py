"""The postmortem editor: languages side by side, preview, publishing, and inline action items."""

import datetime as dt

import pytest

from incidents.models import ActionItem, AuditEvent, Postmortem

from .conftest import logged_in
from .test_incidents import ONE_MEGABYTE


@pytest.fixture
def client(responder):
    return logged_in(responder)


@pytest.mark.django_db
def test_writing_a_postmortem_in_two_languages_marks_completeness(client, incident):
    url = f"/editor/incidents/{incident.pk}/postmortem/"
    client.post(f"{url}en/", {"summary": "The API broke.", "root_cause": "A bad deploy.", "version": ""})
    postmortem = Postmortem.objects.get()
    page = client.get(f"{url}?language=nb").content.decode()
    assert "The API broke." in page  # the original beside the translation
    assert 'id="tab-en"' in page
    assert page.count('class="complete"') == 1  # only English is complete
    client.post(
        f"{url}nb/",
        {"summary": "API-et sviktet.", "root_cause": "En dårlig utrulling.", "version": postmortem.version},
    )
    postmortem.refresh_from_db()
    assert postmortem.completeness()["nb"] is True
    page = client.get(f"{url}?language=nb").content.decode()
    assert page.count('class="complete"') == 2


@pytest.mark.django_db
def test_preview_renders_markdown_on_the_server_and_keeps_the_text(client, incident):
    response = client.post(
        f"/editor/incidents/{incident.pk}/postmortem/en/preview/",
        {"summary": "**Bold** <script>alert(1)</script>", "version": ""},
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert "<strong>Bold</strong>" in page
    assert "<script>alert(1)</script>" not in page
    assert "**Bold** &lt;script&gt;" in page  # what was typed stays in the textarea
    assert not Postmortem.objects.exists()


@pytest.mark.django_db
def test_live_preview_endpoint_returns_sanitised_html(client):
    response = client.post("/editor/preview/", {"text": "*hi* <img src=x onerror=alert(1)>"})
    assert response.content.decode().strip() == "<p><em>hi</em> </p>"


@pytest.mark.django_db
def test_publishing_and_unpublishing(client, incident, postmortem):
    client.post(f"/editor/incidents/{incident.pk}/postmortem/publish/", {"publish_with_empty_sections": "on"})
    postmortem.refresh_from_db()
    assert postmortem.is_published
    client.post(f"/editor/incidents/{incident.pk}/postmortem/unpublish/")
    postmortem.refresh_from_db()
    assert not postmortem.is_published
    actions = list(AuditEvent.objects.filter(subject_type="postmortem").values_list("action", flat=True))
    assert "postmortem.published" in actions and "postmortem.unpublished" in actions


@pytest.mark.django_db
def test_an_empty_postmortem_is_not_published(client, incident):
    client.post(
        f"/editor/incidents/{incident.pk}/action-items/",
        {"new-title": "Do", "new-state": "open"},
    )
    response = client.post(f"/editor/incidents/{incident.pk}/postmortem/publish/", follow=True)
    assert b"An empty postmortem cannot be published." in response.content
    assert not Postmortem.objects.get().is_published


@pytest.mark.django_db
def test_a_megabyte_section_is_refused_and_kept(client, incident):
    response = client.post(
        f"/editor/incidents/{incident.pk}/postmortem/en/", {"summary": ONE_MEGABYTE * 1, "version": ""}
    )
    assert response.status_code == 200
    assert b"Ensure this value has at most 100000 characters" in response.content
    assert ONE_MEGABYTE.encode() in response.content
    assert not Postmortem.objects.exists()


@pytest.mark.django_db
def test_action_item_due_in_a_quarter(client, incident, responder):
    response = client.post(
        f"/editor/incidents/{incident.pk}/action-items/",
        {
            "language": "en",
            "new-title": "Add a canary stage",
            "new-owner": responder.pk,
            "new-due": "Q1 2027",
            "new-state": "open",
            "new-is_public": "on",
        },
    )
    assert response.status_code == 302
    item = ActionItem.objects.get()
    assert (item.due_date, item.due_precision, item.owner) == (dt.date(2027, 1, 1), "quarter", responder)
    assert item.due_by == dt.date(2027, 3, 31)
    page = client.get(f"/editor/incidents/{incident.pk}/postmortem/").content.decode()
    assert 'value="Q1 2027"' in page


@pytest.mark.django_db
def test_action_item_with_a_free_text_owner_and_internal(client, incident):
    client.post(
        f"/editor/incidents/{incident.pk}/action-items/",
        {
            "new-title": "Review alerts",
            "new-owner_name": "SRE team",
            "new-due": "2026-12",
            "new-state": "open",
        },
    )
    item = ActionItem.objects.get()
    assert item.owner_name == "SRE team" and not item.is_public
    assert (item.due_date, item.due_precision) == (dt.date(2026, 12, 1), "month")


@pytest.mark.parametrize(
    ("due", "message"),
    [
        ("Q5 2027", "Enter a date (2026-12-15)"),
        ("2027-13", "Enter a date (2026-12-15)"),
        ("2027-02-30", "Enter a date (2026-12-15)"),
        ("tomorrow", "Enter a date (2026-12-15)"),
        ("3027", "Plan at most"),
    ],
)
@pytest.mark.django_db
def test_a_due_date_that_cannot_be_read_is_refused_on_its_field(client, incident, due, message):
    response = client.post(
        f"/editor/incidents/{incident.pk}/action-items/",
        {"new-title": "Typed title", "new-due": due, "new-state": "open"},
    )
    assert response.status_code == 200
    page = response.content.decode()
    due_field = page[page.index('id="id_new-due"') - 600 :][:1400]
    assert message in due_field and "Due" in due_field
    assert 'value="Typed title"' in page and f'value="{due}"' in page
    assert not ActionItem.objects.exists()


@pytest.mark.django_db
def test_an_action_item_without_a_title_is_refused(client, incident):
    response = client.post(
        f"/editor/incidents/{incident.pk}/action-items/",
        {"new-title": "", "new-owner_name": "Ops", "new-state": "open"},
    )
    assert b"This field is required." in response.content and b'value="Ops"' in response.content
    assert not ActionItem.objects.exists()


@pytest.mark.django_db
def test_owner_is_a_user_or_a_name_not_both(client, incident, responder):
    response = client.post(
        f"/editor/incidents/{incident.pk}/action-items/",
        {
            "new-title": "X",
            "new-owner": responder.pk,
            "new-owner_name": "Ops",
            "new-state": "open",
        },
    )
    assert b"Choose a user or type a name, not both." in response.content
    assert not ActionItem.objects.exists()


@pytest.mark.django_db
def test_editing_an_action_item_inline(client, action_item):
    prefix = f"item{action_item.pk}"
    response = client.post(
        f"/editor/action-items/{action_item.pk}/",
        {
            f"{prefix}-title": "Add a canary",
            f"{prefix}-owner_name": "",
            f"{prefix}-owner": action_item.owner_id,
            f"{prefix}-due": "2026",
            f"{prefix}-state": "done",
        },
    )
    assert response.status_code == 302
    action_item.refresh_from_db()
    assert action_item.state == "done" and action_item.completed_at is not None
    assert action_item.due_precision == "year" and not action_item.is_public


@pytest.mark.django_db
def test_a_bad_inline_edit_keeps_what_was_typed(client, action_item):
    prefix = f"item{action_item.pk}"
    response = client.post(
        f"/editor/action-items/{action_item.pk}/",
        {
            f"{prefix}-title": "Renamed",
            f"{prefix}-due": "May 2026",
            f"{prefix}-state": "open",
        },
    )
    assert response.status_code == 200
    assert b'value="Renamed"' in response.content and b"Enter a date (2026-12-15)" in response.content
    action_item.refresh_from_db()
    assert action_item.title == {"en": "Add a canary"}


@pytest.mark.django_db
def test_action_item_titles_are_translated_per_tab(client, action_item):
    prefix = f"item{action_item.pk}"
    client.post(
        f"/editor/action-items/{action_item.pk}/",
        {
            "language": "nb",
            f"{prefix}-title": "Legg til kanari",
            f"{prefix}-owner": action_item.owner_id,
            f"{prefix}-due": "2026-01-01",
            f"{prefix}-state": "open",
            f"{prefix}-is_public": "on",
        },
    )
    action_item.refresh_from_db()
    assert action_item.title == {"en": "Add a canary", "nb": "Legg til kanari"}
