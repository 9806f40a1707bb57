"""Ids in the query strings of staff pages: a digit that is not an ASCII one ("²", "٣") or a
number no column holds is refused or ignored, never a 500."""

import pytest

HOSTILE_IDS = ("²", "٣", "9" * 40)


@pytest.mark.parametrize("raw", HOSTILE_IDS)
def test_declare_with_a_hostile_template_id_shows_the_empty_form(editor, raw):
    response = editor.get("/editor/incidents/new/", {"template": raw})
    assert response.status_code == 200


@pytest.mark.parametrize("raw", HOSTILE_IDS)
def test_new_probe_with_a_hostile_metric_id_shows_the_empty_form(editor, raw):
    response = editor.get("/editor/probes/new/", {"metric": raw})
    assert response.status_code == 200


@pytest.mark.parametrize("raw", HOSTILE_IDS)
def test_deliveries_with_a_hostile_update_id_are_refused_naming_the_parameter(editor, raw):
    response = editor.get("/editor/deliveries/", {"update": raw})
    assert response.status_code == 400
    assert b"update" in response.content
