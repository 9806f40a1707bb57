"""A monitored server may answer with anything: a body nested too deeply is a failed reading,
never a RecursionError in the probe engine."""

import pytest

from incidents.probes.scrape import json_value

DEEP = "[" * 30_000


@pytest.mark.django_db
def test_a_scraped_json_body_nested_too_deeply_is_a_bad_value():
    with pytest.raises(ValueError):
        json_value(DEEP, "$.value")


@pytest.mark.django_db
def test_a_scraped_json_body_with_a_number_still_reads():
    assert json_value('{"value": 1.5}', "value") == 1.5
