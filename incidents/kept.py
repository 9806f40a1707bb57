"""Pieces of pages kept per process by exactly what they show.

A list page writes dozens of rows, and writing one (its texts picked by language, its times
formatted, its HTML escaped) costs several times what reading it does. The functions that
write rows, cells and feed entries are therefore memoised on their inputs: every input is part
of the key, so a kept piece is never out of date, and the least recently used are dropped
first. `forget_all()` empties them (tests, and the benchmark's cold runs).
"""

from collections.abc import Callable
from functools import lru_cache

_memos: list = []


def kept(maxsize: int) -> Callable:
    """lru_cache(maxsize), registered with forget_all()."""

    def decorate(function):
        memo = lru_cache(maxsize=maxsize)(function)
        _memos.append(memo)
        return memo

    return decorate


def forget_all() -> None:
    for memo in _memos:
        memo.cache_clear()
