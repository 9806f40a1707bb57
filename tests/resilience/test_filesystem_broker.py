"""The embedded broker rides out its queue folder going missing: a worker polling it keeps
running and takes messages again once the folder is back."""

import queue

import pytest
from kombu import Connection
from kombu.transport.virtual import BrokerState

from statuspage.filesystem_broker import Transport


@pytest.fixture
def broker(tmp_path, monkeypatch):
    # kombu keeps the exchanges and bindings of every file-system connection in the process on
    # the class: start from none, whatever the app's own connections declared earlier.
    monkeypatch.setattr(Transport, "global_state", BrokerState())
    folder = tmp_path / "celery-queue"
    folder.mkdir()
    options = {
        "data_folder_in": str(folder),
        "data_folder_out": str(folder),
        "control_folder": str(tmp_path / "celery-control"),
    }
    with Connection(transport=Transport, transport_options=options) as connection:
        yield connection, folder


def test_a_missing_queue_folder_reads_as_an_empty_queue_until_it_is_back(broker, tmp_path):
    connection, folder = broker
    messages = connection.SimpleQueue("default")
    messages.put({"task": "before"})
    folder.rename(tmp_path / "moved-away")

    with pytest.raises(queue.Empty):
        messages.get(timeout=0.2)  # kombu's own transport raises FileNotFoundError here

    (tmp_path / "moved-away").rename(folder)
    message = messages.get(timeout=2)
    assert message.payload == {"task": "before"}
    message.ack()
