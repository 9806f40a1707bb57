"""Optimistic concurrency: a write refused because the row changed since it was read."""

from typing import Any


class ConcurrentEdit(Exception):
    """Someone else saved the object since the editor loaded it."""

    def __init__(self, current: Any) -> None:
        super().__init__(f"{current!r} was changed by someone else")
        self.current = current
