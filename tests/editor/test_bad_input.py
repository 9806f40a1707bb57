"""One megabyte typed into any editor form: a form error, nothing saved, and the text kept."""

import pytest

from incidents.lifecycle.commands import ResolveIncident
from incidents.lifecycle.updates import resolve_incident

from .conftest import logged_in
from .test_permissions import ACTIONS, snapshot

ONE_MEGABYTE = "y" * (1024 * 1024)

# Form action name (from the permissions matrix) → the text field that gets the megabyte.
TEXT_FIELDS = {
    "declare": "body",
    "schedule maintenance": "body",
    "post update": "body",
    "resolve": "resolve-body",
    "reopen": "reopen-body",
    "edit incident": "title",
    "edit update": "text",
    "save postmortem": "summary",
    "add action item": "new-title",
    "edit action item": None,  # prefixed per item, filled in below
    "new template": "body_en",
    "edit template": "body_en",
    "new component": "name_en",
    "edit component": "description_en",
    "new metric": "name_en",
    "edit thresholds": "name_en",
    "new group": "name_en",
    "edit group": "description_nb",
}
FORMS = [action for action in ACTIONS if action[0] in TEXT_FIELDS]


@pytest.mark.django_db
@pytest.mark.parametrize("action", FORMS, ids=[action[0] for action in FORMS])
def test_a_megabyte_of_text_is_refused_and_kept(admin, world, action):
    name, _method, _minimum, url, data, _status = action
    field = TEXT_FIELDS[name] or f"item{world['item'].pk}-title"
    if name == "reopen":  # the reopen form is on the page of a closed incident
        resolve_incident(
            world["incident"], ResolveIncident(body={"en": "Fixed."}, language="en"), actor=admin
        )
    before = snapshot()
    response = logged_in(admin).post(url(world), {**data(world), field: ONE_MEGABYTE})
    assert response.status_code == 200
    assert b"Ensure this value has at most" in response.content
    assert ONE_MEGABYTE.encode() in response.content
    assert snapshot() == before
