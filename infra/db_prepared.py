"""Statements run on every live move, prepared by PostgreSQL once per connection.

Django's PostgreSQL cursors bind parameters on the client: every call renders each value into
the SQL text, and the server parses and plans the statement again. `fetch_prepared` runs a
statement with its parameters sent apart (server-side binding), has the connection prepare it
once, and reads the rows in binary: a move's statements then cost this process and PostgreSQL
less. Errors are Django's
(`DatabaseError` and the like), as from any query, and mark the connection as Django's cursors
do. Elsewhere (SQLite) it is an ordinary query.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections


def fetch_prepared(sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
    """The rows of `sql` (with `%s` placeholders) run with `params` on the default database."""
    connection = connections[DEFAULT_DB_ALIAS]
    if connection.vendor != "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.fetchall()
    import psycopg

    connection.close_if_health_check_failed()
    connection.ensure_connection()
    with connection.wrap_database_errors, psycopg.Cursor(connection.connection) as cursor:
        cursor.execute(sql, params, prepare=True, binary=True)
        return cursor.fetchall()
