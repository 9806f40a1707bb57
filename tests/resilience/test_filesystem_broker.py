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


class Watched:
    """A file being written; before each write, notes what a worker listing the folder sees."""

    def __init__(self, file, folder, seen):
        self.file, self.folder, self.seen = file, folder, seen

    def write(self, data):
        self.seen.append(sorted(p.name for p in self.folder.iterdir()))
        return self.file.write(data)

    def __getattr__(self, name):
        return getattr(self.file, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.file.close()


def test_a_message_being_written_is_never_taken_half_written(broker, monkeypatch):
    connection, folder = broker
    messages = connection.SimpleQueue("default")
    seen_while_writing = []
    real_open = open
    monkeypatch.setattr(
        "builtins.open",
        lambda *args, **kwargs: Watched(real_open(*args, **kwargs), folder, seen_while_writing),
    )
    messages.put({"task": "whole"})
    monkeypatch.undo()

    assert seen_while_writing
    assert not [name for names in seen_while_writing for name in names if name.endswith(".msg")]
    message = messages.get(timeout=2)
    assert message.payload == {"task": "whole"}
    message.ack()
