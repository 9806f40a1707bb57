"""The push endpoint: token auth, validation of every value, nothing stored on refusal."""

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from incidents.models import Rollup, Sample


def push(client, probe, body, *, token=None, content_type="application/json"):
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    data = body if isinstance(body, bytes | str) else json.dumps(body)
    return client.post(
        f"/probes/push/{probe.public_id}/", data=data, content_type=content_type, headers=headers
    )


def test_a_pushed_value_is_stored_as_a_sample_with_rollups(client, push_probe):
    response = push(client, push_probe, {"value": 42.5}, token=push_probe.token)
    assert response.status_code == 202
    assert response.json() == {"stored": 1}
    assert list(Sample.objects.values_list("value", flat=True)) == [42.5]
    assert Rollup.objects.filter(metric=push_probe.metric).count() == 3
    push_probe.metric.refresh_from_db()
    assert push_probe.metric.latest_value == 42.5


def test_a_push_into_existing_buckets_takes_one_statement_per_step(client, push_probe):
    """Systems push every few seconds: a push is its lookup, one transaction and, in it, the
    sample, the rollups read and written, the latest figure and the metric's health (with no
    savepoints of its own)."""
    push(client, push_probe, {"value": 40}, token=push_probe.token)
    with CaptureQueriesContext(connection) as queries:
        assert push(client, push_probe, {"value": 41}, token=push_probe.token).status_code == 202
    statements = [q["sql"].split()[0].upper() for q in queries.captured_queries]
    assert statements.count("SAVEPOINT") <= 1  # the push's own transaction, inside the test's
    assert len(statements) <= 9, statements
    push_probe.metric.refresh_from_db()
    assert push_probe.metric.latest_value == 41


def test_a_small_batch_is_accepted_with_its_times(client, push_probe):
    samples = [{"value": 1}, {"value": 2.5, "at": "2020-01-01T00:00:00+00:00"}]
    response = push(client, push_probe, {"samples": samples[:1] + [{"value": 2.5}]}, token=push_probe.token)
    assert response.status_code == 202
    assert sorted(Sample.objects.values_list("value", flat=True)) == [1.0, 2.5]


@pytest.mark.parametrize(
    ("body", "token", "status"),
    [
        ({"value": 1}, None, 401),
        ({"value": 1}, "wrong-token", 403),
        ({"value": "12"}, "right", 400),
        ({"value": "fast"}, "right", 400),
        ('{"value": NaN}', "right", 400),
        ('{"value": Infinity}', "right", 400),
        ('{"value": -Infinity}', "right", 400),
        ({"value": 1e20}, "right", 400),
        ({"value": True}, "right", 400),
        ({"value": None}, "right", 400),
        ({"value": -5}, "right", 400),  # a latency cannot be negative
        ({"samples": [{"value": 1}, {"value": "x"}]}, "right", 400),
        ({"samples": [{"value": 1}] * 101}, "right", 400),
        ({"samples": []}, "right", 400),
        ({"value": 1, "at": "yesterday"}, "right", 400),
        ({"value": 1, "at": "2999-01-01T00:00:00+00:00"}, "right", 400),
        ("not json", "right", 400),
        ("[1, 2]", "right", 400),
        ('{"value": 1' + " " * (1024 * 1024) + "}", "right", 413),
    ],
)
def test_bad_pushes_are_refused_with_a_client_error_and_store_nothing(
    client, push_probe, body, token, status
):
    token = push_probe.token if token == "right" else token
    response = push(client, push_probe, body, token=token)
    assert response.status_code == status
    assert "error" in response.json()
    assert not Sample.objects.exists()
    assert not Rollup.objects.exists()
    push_probe.metric.refresh_from_db()
    assert push_probe.metric.latest_value is None


def test_a_token_only_works_for_its_own_probe(client, push_probe, make_probe):
    other = make_probe("push", interval=60)
    response = push(client, other, {"value": 1}, token=push_probe.token)
    assert response.status_code == 403
    assert not Sample.objects.exists()


def test_the_token_is_stored_only_as_a_hash(push_probe):
    push_probe.refresh_from_db()
    assert push_probe.token not in push_probe.push_token_hash
    assert push_probe.push_token_matches(push_probe.token)


def test_pushing_to_an_unknown_probe_is_not_found(client, db):
    assert (
        client.post("/probes/push/nosuchprobe0/", data="{}", content_type="application/json").status_code
        == 404
    )
