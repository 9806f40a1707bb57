"""Writing many rows cheaply: inserting them, or updating them with different values in one
statement.

`update_many`: Django's `bulk_update` builds a CASE expression per field and row and resolves
each one; at probe rates that costs milliseconds per row of CPU. This writes `UPDATE … FROM`, with
each value prepared by its field: on PostgreSQL from one array per column (`unnest`), on SQLite
from a VALUES list. Other databases use `bulk_update`.
"""

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
    connection = connections[using]
    if unless_later is not None and unless_later not in fields:
        raise ValueError(f"unless_later names {unless_later!r}, which is not among the fields written")
    if connection.vendor not in ("postgresql", "sqlite"):
        if unless_later is not None:
            raise NotImplementedError(
                f"unless_later is written for PostgreSQL and SQLite, not {connection.vendor}"
            )
        model.objects.using(using).bulk_update(objs, fields)
        return {obj.pk for obj in objs}
    meta = model._meta
    columns = [meta.get_field(name) for name in fields]
    rows = [
        [obj.pk, *(field.get_db_prep_save(getattr(obj, field.attname), connection) for field in columns)]
        for obj in objs
    ]
    condition = meta.get_field(unless_later) if unless_later else None
    write = _update_from_arrays if connection.vendor == "postgresql" else _update_from_values
    written = write(connection, meta, columns, rows, condition)
    return written if condition is not None else {obj.pk for obj in objs}


def _update_from_arrays(connection, meta, columns, rows, condition) -> set:
    # One array parameter per column, so the statement's size does not grow with the number of
    # rows: psycopg parses and the server plans a short query.
    quote = connection.ops.quote_name
    pk = meta.pk
    arrays = ", ".join(
        f"unnest(CAST(%s AS {field.db_type(connection)}[])) AS {quote(field.column)}" for field in columns
    )
    source = f"SELECT unnest(CAST(%s AS {pk.rel_db_type(connection)}[])) AS {quote(pk.column)}, {arrays}"
    names = [quote(field.column) for field in [pk, *columns]]
    with connection.cursor() as cursor:
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
