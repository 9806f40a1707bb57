"""A connection kept for a worker's dispatch run: shared by the batches inside the block, closed
when the outermost block ends."""

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import Any


class RunScoped(threading.local):
    """Per thread: a connection belongs to the thread (and event loop) that opened it."""

    depth = 0
    value: Any = None

    def __init__(self, close: Callable[[Any], object]) -> None:
        self._close = close

    @contextmanager
    def kept(self) -> Iterator[None]:
        self.depth += 1
        try:
            yield
        finally:
            self.depth -= 1
            if self.depth == 0 and self.value is not None:
                value, self.value = self.value, None
                with suppress(OSError):
                    self._close(value)
