"""Connections a library opens through urllib3 (requests) inside `guarded_connections` are judged
by the guard at the address connected to, also in a worker thread started with the caller's
context; outside the block urllib3 connects as it always does."""

import contextvars
import threading

import pytest
import requests

from incidents.outbound.library_guard import guarded_connections
from tests.hostile.receivers import Witness


@pytest.fixture
def server():
    witness = Witness({})
    yield witness
    witness.stop()


def test_outside_the_block_urllib3_connects_as_it_always_does(settings, server):
    settings.OUTBOUND_ALLOW_PRIVATE_TARGETS = False

    assert requests.get(f"http://127.0.0.1:{server.port}/plain", timeout=2).status_code == 200
    assert server.paths == ["/plain"]


def test_inside_the_block_a_refused_address_gets_no_connection(settings, server):
    settings.OUTBOUND_ALLOW_PRIVATE_TARGETS = False

    with guarded_connections() as refusals, pytest.raises(requests.ConnectionError):
        requests.get(f"http://127.0.0.1:{server.port}/guarded", timeout=2)

    assert server.accepted == []
    assert refusals == [
        "127.0.0.1 is a private or loopback address; set OUTBOUND_ALLOW_PRIVATE_TARGETS to allow it."
    ]


def test_the_guard_holds_in_a_thread_started_with_the_callers_context(settings, server):
    settings.OUTBOUND_ALLOW_PRIVATE_TARGETS = False
    outcome: list[BaseException] = []

    def fetch():
        try:
            requests.get(f"http://127.0.0.1:{server.port}/threaded", timeout=2)
        except requests.ConnectionError as error:
            outcome.append(error)

    with guarded_connections() as refusals:
        worker = threading.Thread(target=contextvars.copy_context().run, args=(fetch,))
        worker.start()
        worker.join()

    assert server.accepted == [] and len(outcome) == 1 and len(refusals) == 1


def test_an_allowed_address_is_reached_and_a_never_allowed_one_is_not(settings, server):
    settings.OUTBOUND_ALLOW_PRIVATE_TARGETS = True
    # 0.0.0.0 is never allowed: Linux would connect it to this very server.
    target = f"http://0.0.0.0:{server.port}/never"

    with guarded_connections() as refusals:
        assert requests.get(f"http://127.0.0.1:{server.port}/allowed", timeout=2).status_code == 200
        with pytest.raises(requests.ConnectionError):
            requests.get(target, timeout=2)

    assert server.paths == ["/allowed"]
    assert refusals == ["The unspecified address and 0.0.0.0/8 are never allowed."]
