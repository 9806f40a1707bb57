"""The embedded broker (kombu's file-system transport) riding out a missing folder.

kombu lists the queue folder on every poll and a worker dies when it is gone (moved away,
a clean-up script). Here a missing folder reads as an empty queue: the worker keeps polling
and takes messages again once the folder is back. It is not recreated, so a folder moved
back in place is not shadowed by an empty one.
"""

import os
from queue import Empty

from kombu.transport import filesystem


class Channel(filesystem.Channel):
    def _get(self, queue):
        if not os.path.isdir(self.data_folder_in):
            raise Empty()
        return super()._get(queue)

    def _size(self, queue):
        return super()._size(queue) if os.path.isdir(self.data_folder_in) else 0


class Transport(filesystem.Transport):
    Channel = Channel
