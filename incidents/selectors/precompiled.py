"""Querysets of one shape, compiled once per database connection: compiling the overview's
queries on every render cost more than running them (docs/public-site.md)."""

import datetime as dt
from collections.abc import Callable
from typing import Any
from weakref import WeakKeyDictionary

from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import QuerySet

# Stand-ins for the times a query is compiled with, told apart from any real time by their year.
_STAND_INS = [dt.datetime(1901, 1, 1, 0, 0, second, tzinfo=dt.UTC) for second in range(60)]


class Precompiled:
    """Evaluates the queryset `build(**times)` makes, compiled by its first evaluation on each
    connection (connections are per thread, and a compiler holds its connection): later calls
    put their own `times` (datetimes, the only parameters that may change) into its SQL's
    parameters. Everything else `build` reads must be the same on every call."""

    def __init__(self, build: Callable[..., QuerySet[Any]], *, times: tuple[str, ...] = ()):
        self._build = build
        self._times = times
        self._compiled: WeakKeyDictionary[BaseDatabaseWrapper, _Compiled] = WeakKeyDictionary()
        self._alias: str | None = None  # the database the queryset reads

    def __call__(self, **times: dt.datetime) -> list[Any]:
        stand_ins = dict(zip(self._times, _STAND_INS, strict=False))
        if self._alias is None:
            self._alias = self._build(**stand_ins).db
        connection = connections[self._alias]
        compiled = self._compiled.get(connection)
        if compiled is None:
            compiled = self._compiled[connection] = _Compiled(self._build(**stand_ins), connection, stand_ins)
        return compiled.rows(times)


class _Compiled:
    def __init__(
        self, base: QuerySet[Any], connection: BaseDatabaseWrapper, stand_ins: dict[str, dt.datetime]
    ):
        self.base, self.connection = base, connection
        self.compiler = base.query.get_compiler(connection=connection)
        self.sql, params = self.compiler.as_sql()  # also sets up the columns rows are read by
        self.params = list(params)
        adapted = {name: connection.ops.adapt_datetimefield_value(at) for name, at in stand_ins.items()}
        self.slots = [
            (index, name)
            for index, value in enumerate(self.params)
            for name in adapted
            if value == adapted[name]
        ]
        if {name for _index, name in self.slots} != set(stand_ins):
            raise ValueError(f"{sorted(stand_ins)} are not all parameters of {self.sql}")

    def rows(self, times: dict[str, dt.datetime]) -> list[Any]:
        params = list(self.params)
        for index, name in self.slots:
            params[index] = self.connection.ops.adapt_datetimefield_value(times[name])
        sql, compiler = self.sql, self.compiler
        compiler.as_sql = lambda *args, **kwargs: (sql, tuple(params))
        queryset = self.base.all()  # a clone, evaluated here and never chained further
        queryset.query.get_compiler = lambda *args, **kwargs: compiler  # type: ignore[method-assign]
        return list(queryset)
