"""`load-data`: a JSON document of sections, loaded as one transaction (docs/data-load.md).

Each family contributes `Section`s. The first invalid record rejects the whole file with a
message naming section, index and field, and nothing is written: the sections are checked in
their order inside the file's transaction, then written in the same order, and the first bad
record rolls back whatever came before it.

A staged section (`Staging`) is never held: its records are read from the file one at a time,
each validated and turned into a row that COPY sends to a temporary table while the next is
read; the checks across records (duplicates) and the writes are set-based statements over that
table. What the process holds is one record and COPY's buffer, whatever the file's size.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg
import ijson
import orjson
from marshmallow import Schema, ValidationError

from app.core import audit, database, json_stream
from app.core.config import Settings


class LoadError(Exception):
    """A record the operator must fix; the message names file, section, index and field."""


class RecordError(Exception):
    """Raised by a section's validator or loader: which record and field is wrong."""

    def __init__(self, index: int, field: str, message: str):
        super().__init__(message)
        self.index, self.field, self.message = index, field, message


Validator = Callable[[list[Any]], list[Any]]
# Given the section's validated records, or for a staged section their number (it reads them
# from its staging table).
Writer = Callable[[asyncpg.Connection, Any], Awaitable[None]]
# A staged section's rows: each record validated in order (RecordError at the first bad one)
# and turned into a tuple of its table's columns, the record's index first; the settings are
# the service's (the riders' PINs are hashed with its pepper).
Rows = Callable[[Iterable[Any], Settings | None], Iterator[tuple]]


@dataclass(frozen=True)
class Staging:
    """How a section's records reach the database: `create` makes the (temporary) `table`,
    whose `columns` the `rows` fill by COPY; each of `checks` returns the first record that
    breaks a rule across records (ord, field, message), or no row."""

    create: str
    table: str
    columns: tuple[str, ...]
    rows: Rows
    checks: tuple[str, ...] = ()


@dataclass(frozen=True)
class Section:
    """`streamed`: read from a file, the section's records come as a sized iterable that
    reads them again on each iteration (json_stream.Records), never as one list; `write` then
    passes over them without holding them. `validate` None: `write` validates each record as
    it reads it, raising RecordError at the first bad one."""

    name: str
    validate: Validator | None
    write: Writer
    streamed: bool = False
    # Keys whose integer values the write looks up before its first record (the records'
    # IDs): a streamed file section keeps them while the sections are found (json_stream).
    looked_up: tuple[str, ...] = ()
    # Set: the records are staged (above) and `write` reads them from the staging table.
    staging: Staging | None = None


def staged(name: str, staging: Staging, write: Writer) -> Section:
    """A section read from a file as a stream and staged by COPY."""
    return Section(name, None, write, streamed=True, staging=staging)


async def _stage(conn: asyncpg.Connection, staging: Staging, records: Any, settings) -> int:
    """COPY the section's rows into its staging table, then run its checks; returns the
    number of records."""
    counted = _Counted(staging.rows(records, settings))
    await conn.execute(staging.create)
    async with database.json_as_text(conn):
        await conn.copy_records_to_table(staging.table, records=counted, columns=staging.columns)
    for check in staging.checks:
        await first_fault(conn, check)
    return counted.count


class _Counted:
    """An iterable of rows that counts what it gave."""

    def __init__(self, rows: Iterator[tuple]):
        self.rows, self.count = rows, 0

    def __iter__(self) -> Iterator[tuple]:
        for row in self.rows:
            self.count += 1
            yield row


def _first_error(messages: Any, path: str = "") -> tuple[str, str]:
    """The first (path, message) of marshmallow's nested error dict, in field order."""
    if isinstance(messages, list):
        first = messages[0]
        return (path, first) if isinstance(first, str) else _first_error(first, path)
    key = min(messages, key=lambda k: (not isinstance(k, int), k if isinstance(k, int) else 0))
    step = f"[{key}]" if isinstance(key, int) else (f".{key}" if path else str(key))
    return _first_error(messages[key], path + step)


def schema_validator(schema: type[Schema]) -> Validator:
    """A validator that loads every record with a marshmallow schema."""
    loader = schema(many=True)

    def validate(records: list[Any]) -> list[Any]:
        try:
            return loader.load(records)
        except ValidationError as exc:
            index = min(k for k in exc.messages if isinstance(k, int))
            raise _record_error(index, exc.messages[index]) from None

    return validate


def _record_error(index: int, messages: Any) -> RecordError:
    """The first of one record's marshmallow messages."""
    field, message = _first_error(messages)
    return RecordError(index, field or "(record)", message)


PlainReader = Callable[[Any], Any | None]


def schema_loader(schema: type[Schema]) -> Callable[[int, Any], Any]:
    """A loader of one record with `schema`, given its index (RecordError names the first
    field at fault)."""
    loader = schema()

    def load(index: int, record: Any) -> Any:
        try:
            return loader.load(record)
        except ValidationError as exc:
            raise _record_error(index, exc.messages) from None

    return load


def plain_first_loader(schema: type[Schema], plain: PlainReader) -> Callable[[int, Any], Any]:
    """A loader of one record of a big section, given its index: `plain` loads the records of
    the usual shape quickly (it returns what the schema would, or None); the schema loads the
    others and words their errors."""
    load_with_schema = schema_loader(schema)

    def load(index: int, record: Any) -> Any:
        value = plain(record)
        return load_with_schema(index, record) if value is None else value

    return load


def record_rows(load: Callable[[int, Any], Any], row: Callable[[int, Any], tuple]) -> Rows:
    """A staged section's rows: each record loaded by `load` in order, made a row by `row`
    (given the record's index and what `load` returned)."""

    def rows(records: Iterable[Any], _settings: Settings | None) -> Iterator[tuple]:
        for index, record in enumerate(records):
            yield row(index, load(index, record))

    return rows


async def first_fault(conn: asyncpg.Connection, statement: str, *args: Any) -> None:
    """Raise the RecordError of the (ord, field, message) row `statement` returns, if any."""
    found = await conn.fetchrow(statement, *args)
    if found is not None:
        raise RecordError(found["ord"], found["field"], found["message"])


def validated(schema: type[Schema], *checks: Validator) -> Validator:
    """Load every record with `schema`, then run each check over the section."""
    load = schema_validator(schema)

    def validate(records: list[Any]) -> list[Any]:
        records = load(records)
        for check in checks:
            records = check(records)
        return records

    return validate


class Unique:
    """The values of field `name` seen so far in a section, for records checked one at a time."""

    def __init__(self, name: str):
        self.name, self.seen = name, set()

    def check(self, index: int, record: Any) -> None:
        value = record.get(self.name)
        if value is None:
            return
        if value in self.seen:
            raise RecordError(index, self.name, f"duplicate {self.name} {value!r} in this section")
        self.seen.add(value)


def unique(*names: str) -> Validator:
    """A check: no two records of the section share a value of any of these fields."""

    def check(records: list[Any]) -> list[Any]:
        for name in names:
            seen = Unique(name)
            for index, record in enumerate(records):
                seen.check(index, record)
        return records

    return check


def column(records: list[Any], name: str) -> list[Any]:
    return [record[name] for record in records]


def columns(records: list[Any], *names: str) -> list[list[Any]]:
    """The records as one array per field, for `unnest`."""
    return [column(records, name) for name in names]


def json_text(value: Any) -> str:
    """A value as JSON text, for a `json`/`jsonb` parameter."""
    return orjson.dumps(value).decode()


def read_document(
    path: Path, streamed: Mapping[str, Collection[str]] | None = None
) -> dict[str, Any]:
    """The document in `path`; the sections named in `streamed` are not held but read again
    from the file when iterated (json_stream.Records), keeping the integers of the keys named
    for each. The whole file is parsed once here, so invalid JSON anywhere is refused before
    anything is loaded."""
    try:
        document = json_stream.read_sections(path, streamed or {})
    except OSError as exc:
        raise LoadError(f"{path}: cannot read file: {exc.strerror}") from None
    except ijson.JSONError as exc:
        raise LoadError(f"{path}: invalid JSON: {_one_line(exc)}") from None
    if not isinstance(document, dict):
        raise LoadError(f"{path}: the document must be a JSON object of sections")
    return document


def _one_line(exc: ijson.JSONError) -> str:
    """The parser's message on one line: the error, then the text around it (the parser
    prints that on a line of its own, above a line pointing into it; some messages come as
    bytes)."""
    message = exc.args[0] if exc.args else ""
    if isinstance(message, bytes):
        message = message.decode("utf-8", "replace")
    lines = [
        line.strip()
        for line in str(message).splitlines()
        if line.strip() and not line.strip().startswith("(right here)")
    ]
    return f"{lines[0]} near {lines[1]!r}" if len(lines) > 1 else "".join(lines)


async def load_document(
    conn: asyncpg.Connection,
    document: Mapping[str, Any],
    sections: Sequence[Section],
    after: Sequence[Callable[[asyncpg.Connection], Awaitable[None]]] = (),
    source: str = "document",
    settings: Settings | None = None,
    actor: audit.Actor | None = None,
) -> dict[str, int]:
    """Check the sections in order, then write them in order, in one transaction; returns
    counts. `settings` are what the staged sections' rows read (the riders' pepper); an
    `actor` (the command line) gets the load's audit event in that transaction."""
    known = {section.name for section in sections}
    unknown = sorted(set(document) - known)
    if unknown:
        raise LoadError(f"{source}: unknown section {unknown[0]!r}")
    present = [section for section in sections if section.name in document]
    for section in present:
        if not isinstance(document[section.name], list | json_stream.Records):
            raise LoadError(f"{source}: section {section.name} must be an array")
    counts: dict[str, int] = {}
    try:
        async with conn.transaction():
            checked: list[tuple[Section, Any]] = []
            for section in present:
                with _naming(source, section):
                    records = await _check(conn, section, document[section.name], settings)
                counts[section.name] = records if section.staging is not None else len(records)
                checked.append((section, records))
            for section, records in checked:
                with _naming(source, section):
                    await section.write(conn, records)
            for hook in after:
                await hook(conn)
            if actor is not None:
                summary = audit.described(counts) or "nothing"
                await audit.record(conn, actor, "data.loaded", source, summary)
    except asyncpg.PostgresError as exc:
        # What validation let through and the database refused: still one line, nothing written.
        raise LoadError(f"{source}: the database refused the file: {exc}") from None
    return counts


async def _check(conn: asyncpg.Connection, section: Section, records: Any, settings) -> Any:
    """A staged section's count once staged; another's records, validated."""
    if section.staging is not None:
        return await _stage(conn, section.staging, records, settings)
    return records if section.validate is None else section.validate(records)


@contextlib.contextmanager
def _naming(source: str, section: Section):
    """A RecordError becomes the file's LoadError, naming the section."""
    try:
        yield
    except RecordError as exc:
        raise LoadError(_where(source, section.name, exc)) from None


def _where(source: str, section: str, exc: RecordError) -> str:
    return f"{source}: {section}[{exc.index}].{exc.field}: {exc.message}"
