"""The embedded broker (kombu's file-system transport) riding out a missing folder.

A missing folder reads as an empty queue (kombu's worker dies), and is not recreated, so a folder
moved back is not shadowed by an empty one. A message is renamed into the queue once written:
kombu writes in place, and a worker listing the folder could take the empty file and stop on it.
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
