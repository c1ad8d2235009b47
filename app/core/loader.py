"""`load-data`: a JSON document of sections, loaded as one transaction (DESIGN §6).

Each family contributes `Section`s. Every section is validated before anything is written;
the first invalid record rejects the whole file with a message naming section, index and field.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg
import orjson
from marshmallow import Schema, ValidationError

from app.core.config import Settings


class LoadError(Exception):
    """A record the operator must fix; the message names file, section, index and field."""


class RecordError(Exception):
    """Raised by a section's validator or loader: which record and field is wrong."""

    def __init__(self, index: int, field: str, message: str):
        super().__init__(message)
        self.index, self.field, self.message = index, field, message


Validator = Callable[[list[Any]], list[Any]]
Writer = Callable[[asyncpg.Connection, list[Any]], Awaitable[None]]
Preparer = Callable[[list[Any], Settings], list[Any]]


@dataclass(frozen=True)
class Section:
    name: str
    validate: Validator
    write: Writer
    # What the valid records take from the service's settings before they are written (the
    # riders' PINs are hashed with its pepper).
    prepare: Preparer | None = None


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


def plain_first_validator(schema: type[Schema], plain: PlainReader) -> Validator:
    """A validator for big sections: `plain` loads the records of the usual shape quickly (it
    returns what the schema would, or None); the schema loads the others and words their
    errors."""
    loader = schema()

    def validate(records: list[Any]) -> list[Any]:
        loaded = []
        for index, record in enumerate(records):
            value = plain(record)
            if value is None:
                try:
                    value = loader.load(record)
                except ValidationError as exc:
                    raise _record_error(index, exc.messages) from None
            loaded.append(value)
        return loaded

    return validate


def validated(
    schema: type[Schema], *checks: Validator, plain: PlainReader | None = None
) -> Validator:
    """Load every record with `schema` (or `plain` first), then run each check over the
    section."""
    load = schema_validator(schema) if plain is None else plain_first_validator(schema, plain)

    def validate(records: list[Any]) -> list[Any]:
        records = load(records)
        for check in checks:
            records = check(records)
        return records

    return validate


def unique(*names: str) -> Validator:
    """A check: no two records of the section share a value of any of these fields."""

    def check(records: list[Any]) -> list[Any]:
        for name in names:
            seen: set[Any] = set()
            for index, record in enumerate(records):
                value = record.get(name)
                if value is None:
                    continue
                if value in seen:
                    raise RecordError(index, name, f"duplicate {name} {value!r} in this section")
                seen.add(value)
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


def read_document(path: Path) -> dict[str, Any]:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise LoadError(f"{path}: cannot read file: {exc.strerror}") from None
    try:
        document = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise LoadError(f"{path}: invalid JSON: {exc}") from None
    if not isinstance(document, dict):
        raise LoadError(f"{path}: the document must be a JSON object of sections")
    return document


async def load_document(
    conn: asyncpg.Connection,
    document: Mapping[str, Any],
    sections: Sequence[Section],
    after: Sequence[Callable[[asyncpg.Connection], Awaitable[None]]] = (),
    source: str = "document",
    settings: Settings | None = None,
) -> dict[str, int]:
    """Validate every section, then write them in order in one transaction; returns counts.
    `settings` are what the sections' `prepare` read (a section with one needs them)."""
    known = {section.name for section in sections}
    unknown = sorted(set(document) - known)
    if unknown:
        raise LoadError(f"{source}: unknown section {unknown[0]!r}")
    validated: list[tuple[Section, list[Any]]] = []
    for section in sections:
        if section.name not in document:
            continue
        records = document[section.name]
        if not isinstance(records, list):
            raise LoadError(f"{source}: section {section.name} must be an array")
        try:
            records = section.validate(records)
        except RecordError as exc:
            raise LoadError(_where(source, section.name, exc)) from None
        if section.prepare is not None:
            records = section.prepare(records, settings)
        validated.append((section, records))
    try:
        async with conn.transaction():
            for section, records in validated:
                try:
                    await section.write(conn, records)
                except RecordError as exc:
                    raise LoadError(_where(source, section.name, exc)) from None
            for hook in after:
                await hook(conn)
    except asyncpg.PostgresError as exc:
        # What validation let through and the database refused: still one line, nothing written.
        raise LoadError(f"{source}: the database refused the file: {exc}") from None
    return {section.name: len(records) for section, records in validated}


def _where(source: str, section: str, exc: RecordError) -> str:
    return f"{source}: {section}[{exc.index}].{exc.field}: {exc.message}"
