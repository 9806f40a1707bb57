"""Writing many rows cheaply: inserting them, or updating them with different values in one
statement.

`update_many`: Django's `bulk_update` builds a CASE expression per field and row and resolves
each one; at probe rates that costs milliseconds per row of CPU. This writes `UPDATE … FROM`, with
each value prepared by its field: on PostgreSQL from one array per column (`unnest`), on SQLite
from a VALUES list. Other databases use `bulk_update`.

`update_rows` and `insert_rows` do the same from plain rows rather than model instances, for
the probe results' path, where building an instance per row and preparing each value through
its field cost more than the statements themselves. On PostgreSQL the arrays travel apart
from the statement and in binary (`_binding_cursor`): Django's cursor writes every parameter
into the SQL text, escaping each element of an array, several times slower.
"""

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import psycopg
from django.db import connections, models


def insert_many(model: type[models.Model], rows: list[dict], *, using="default") -> None:
    """Inserts `rows` (field name to value; a field left out takes its default) in one COPY on
    PostgreSQL (one stream, not a statement per row), one executemany elsewhere: for tens of
    thousands of rows, bulk_create spends most of its time building a model instance and its
    SQL per row."""
    if not rows:
        return
    connection = connections[using]
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    quote = connection.ops.quote_name
    table, columns = quote(model._meta.db_table), ", ".join(quote(f.column) for f in fields)
    defaults = {f.name: f.get_default() for f in fields}
    prepared = [
        [f.get_db_prep_save(row.get(f.name, defaults[f.name]), connection) for f in fields] for row in rows
    ]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                for values in prepared:
                    copy.write_row(values)
            return
        marks = ", ".join(["%s"] * len(fields))
        cursor.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", prepared)


def update_many(
    model: type[models.Model],
    objs: list[models.Model],
    fields: list[str],
    *,
    unless_later: str | None = None,
    using="default",
) -> set:
    """Saves `fields` of each object in `objs` (by primary key), like bulk_update. With
    `unless_later` (one of `fields`, PostgreSQL and SQLite only), a row whose stored value of that
    field is later than the object's stays as it is: the check and the write are one statement,
    so a concurrent writer cannot slip in between. Returns the primary keys written (all of
    them without `unless_later`)."""
    if not objs:
        return set()
    _check_condition(fields, unless_later)
    connection = connections[using]
    if connection.vendor not in ("postgresql", "sqlite"):
        if unless_later is not None:
            raise NotImplementedError(
                f"unless_later is written for PostgreSQL and SQLite, not {connection.vendor}"
            )
        model.objects.using(using).bulk_update(objs, fields)
        return {obj.pk for obj in objs}
    columns = [model._meta.get_field(name) for name in fields]
    rows = [
        [obj.pk, *(field.get_db_prep_save(getattr(obj, field.attname), connection) for field in columns)]
        for obj in objs
    ]
    return _write(connection, model._meta, columns, rows, unless_later)


def update_rows(
    model: type[models.Model],
    fields: Sequence[str],
    rows: Sequence[Sequence],
    *,
    unless_later: str | None = None,
    using="default",
) -> set:
    """`update_many` from rows of (primary key, one value per field) instead of instances.

    Values are as the model's attributes hold them. On PostgreSQL only JSON values are prepared
    by their field; the others go to the driver as they are, which takes numbers, text and aware
    datetimes but not a column mixing types: give float fields floats. On SQLite every value is
    prepared by its field (it stores times as text of its own format)."""
    if not rows:
        return set()
    _check_condition(fields, unless_later)
    connection = connections[using]
    columns = [model._meta.get_field(name) for name in fields]
    return _write(
        connection, model._meta, columns, _prepared(connection, columns, rows, offset=1), unless_later
    )


def insert_rows(
    model: type[models.Model],
    fields: Sequence[str],
    rows: Sequence[Sequence],
    *,
    ignore_conflicts: bool = False,
    using="default",
) -> None:
    """Inserts rows (one value per field, as for `update_rows`) in one statement; the fields not
    named take their default. With `ignore_conflicts`, a row that would break a unique
    constraint is left out, as bulk_create's."""
    if not rows:
        return
    connection = connections[using]
    meta = model._meta
    named = [meta.get_field(name) for name in fields]
    others = [f for f in meta.concrete_fields if not f.primary_key and f not in named]
    defaults = [f.get_db_prep_save(f.get_default(), connection) for f in others]
    rows = _prepared(connection, named, rows, offset=0)
    quote = connection.ops.quote_name
    columns = ", ".join(quote(f.column) for f in [*named, *others])
    statement = f"INSERT INTO {quote(meta.db_table)} ({columns}) "
    tail = " ON CONFLICT DO NOTHING" if ignore_conflicts else ""
    if connection.vendor == "postgresql":
        arrays = ", ".join(f"unnest(CAST(%b AS {f.db_type(connection)}[]))" for f in named)
        constants = "".join(", %b" for _ in others)
        with _binding_cursor(connection) as cursor:
            cursor.execute(
                f"{statement}SELECT {arrays}{constants}{tail}",
                [*(list(c) for c in zip(*rows, strict=True)), *defaults],
            )
        return
    marks = ", ".join(["%s"] * (len(named) + len(others)))
    with connection.cursor() as cursor:
        cursor.executemany(f"{statement}VALUES ({marks}){tail}", [[*row, *defaults] for row in rows])


def _prepared(connection, columns, rows, *, offset: int) -> list:
    """Rows with the values of `columns` (from `offset` in each row) prepared as update_rows says."""
    if connection.vendor == "postgresql":
        prepare = [(i + offset, f) for i, f in enumerate(columns) if f.get_internal_type() == "JSONField"]
    else:
        prepare = [(i + offset, f) for i, f in enumerate(columns)]
    if not prepare:
        return rows
    prepared = []
    for row in rows:
        row = list(row)
        for i, field in prepare:
            row[i] = field.get_db_prep_save(row[i], connection)
        prepared.append(row)
    return prepared


def _check_condition(fields: Sequence[str], unless_later: str | None) -> None:
    if unless_later is not None and unless_later not in fields:
        raise ValueError(f"unless_later names {unless_later!r}, which is not among the fields written")


@contextmanager
def _binding_cursor(connection) -> Iterator:
    """A cursor of `connection` (PostgreSQL) that sends parameters apart from the statement, so
    `%b` sends one in binary; wrapped as Django wraps its own, so queries are still logged."""
    with connection.cursor():  # connects if needed, with Django's checks
        raw = psycopg.Cursor(connection.connection)
        wrap = connection.make_debug_cursor if connection.queries_logged else connection.make_cursor
        with wrap(raw) as wrapped:
            yield wrapped


def _write(connection, meta, columns, rows, unless_later: str | None) -> set:
    condition = meta.get_field(unless_later) if unless_later else None
    write = _update_from_arrays if connection.vendor == "postgresql" else _update_from_values
    written = write(connection, meta, columns, rows, condition)
    return written if condition is not None else {row[0] for row in rows}


def _update_from_arrays(connection, meta, columns, rows, condition) -> set:
    # One array parameter per column, so the statement's size does not grow with the number of
    # rows: psycopg parses and the server plans a short query.
    quote = connection.ops.quote_name
    pk = meta.pk
    arrays = ", ".join(
        f"unnest(CAST(%b AS {field.db_type(connection)}[])) AS {quote(field.column)}" for field in columns
    )
    source = f"SELECT unnest(CAST(%b AS {pk.rel_db_type(connection)}[])) AS {quote(pk.column)}, {arrays}"
    names = [quote(field.column) for field in [pk, *columns]]
    with _binding_cursor(connection) as cursor:
        cursor.execute(
            _update_sql(connection, meta, names, columns, source, condition),
            [list(c) for c in zip(*rows, strict=True)],
        )
        return {row[0] for row in cursor.fetchall()} if condition is not None else set()


def _update_from_values(connection, meta, columns, rows, condition) -> set:
    # SQLite names the columns of a VALUES list column1, column2, … and caps a statement's
    # parameters, so rows go in batches.
    names = [f"column{i}" for i in range(1, len(columns) + 2)]
    per_row = len(names)
    batch = max(1, connection.features.max_query_params // per_row)
    written = set()
    with connection.cursor() as cursor:
        for start in range(0, len(rows), batch):
            chunk = rows[start : start + batch]
            source = "VALUES " + ", ".join(["(" + ", ".join(["%s"] * per_row) + ")"] * len(chunk))
            params = [value for row in chunk for value in row]
            cursor.execute(_update_sql(connection, meta, names, columns, source, condition), params)
            if condition is not None:
                written.update(row[0] for row in cursor.fetchall())
    return written


def _update_sql(connection, meta, names, columns, source: str, condition) -> str:
    quote = connection.ops.quote_name
    table = quote(meta.db_table)
    value_of = dict(zip(columns, names[1:], strict=True))
    assignments = ", ".join(f"{quote(field.column)} = v.{value_of[field]}" for field in columns)
    pk = f"{table}.{quote(meta.pk.column)}"
    update = f"UPDATE {table} SET {assignments} FROM ({source}) AS v WHERE {pk} = v.{names[0]}"
    if condition is None:
        return update  # every row is written: nothing to read back
    stored = f"{table}.{quote(condition.column)}"
    return f"{update} AND ({stored} IS NULL OR {stored} <= v.{value_of[condition]}) RETURNING {pk}"
