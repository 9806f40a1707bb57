"""A monitored server may answer with anything: a body nested too deeply is a failed reading,
never a RecursionError in the probe engine."""

import pytest

from incidents.probes.scrape import json_value, prometheus_value

DEEP = "[" * 30_000


@pytest.mark.django_db
def test_a_scraped_json_body_nested_too_deeply_is_a_bad_value():
    with pytest.raises(ValueError):
        json_value(DEEP, "$.value")


@pytest.mark.django_db
def test_a_scraped_json_body_with_a_number_still_reads():
    assert json_value('{"value": 1.5}', "value") == 1.5


def test_a_scraped_sample_line_too_long_to_parse_is_a_bad_value():
    # The exposition parser takes time quadratic in a line of escaped quotes.
    line = 'queue_lag{queue="' + '\\"' * 4096 + '"} 3\n'
    with pytest.raises(ValueError):
        prometheus_value(line, "queue_lag", {})


def test_long_lines_of_other_metrics_do_not_reach_the_parser():
    text = 'other{a="' + '\\"' * 50_000 + '"} 1\n# TYPE queue_lag gauge\nqueue_lag{queue="sms"} 7\n'
    assert prometheus_value(text, "queue_lag", {"queue": "sms"}) == 7
