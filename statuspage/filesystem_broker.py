"""The embedded broker (kombu's file-system transport) riding out a missing folder.

kombu lists the queue folder on every poll and a worker dies when it is gone (moved away,
a clean-up script). Here a missing folder reads as an empty queue: the worker keeps polling
and takes messages again once the folder is back. It is not recreated, so a folder moved
back in place is not shadowed by an empty one.

A message is written under a name no reader takes, then renamed into the queue: kombu writes
it in place, and a worker listing the folder meanwhile could take the still empty file and
stop on it (JSONDecodeError), as the notify worker beside the default one did under `make run`.
"""

import os
import uuid
from queue import Empty
from time import monotonic

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps


class Channel(filesystem.Channel):
    def _put(self, queue, payload, **kwargs):
        # kombu's naming (time first, so the queue stays in order), plus a suffix readers skip.
        name = f"{round(monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"
        final = os.path.join(self.data_folder_out, name)
        partial = f"{final}.part"
        try:
            with open(partial, "wb") as file:
                file.write(str_to_bytes(dumps(payload)))
            os.replace(partial, final)
        except OSError as error:
            raise ChannelError(f"Cannot add file {final!r} to directory") from error

    def _get(self, queue):
        if not os.path.isdir(self.data_folder_in):
            raise Empty()
        return super()._get(queue)

    def _size(self, queue):
        return super()._size(queue) if os.path.isdir(self.data_folder_in) else 0


class Transport(filesystem.Transport):
    Channel = Channel
