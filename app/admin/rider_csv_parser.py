"""Rider rows from an uploaded CSV file (docs/csv.md#rider-csv-import).

UTF-8 (a BOM is allowed), comma-separated, RFC 4180 quoting. The first record names the
columns as the API's rider fields in any order and case; unknown columns are ignored and an
empty cell counts as omitted. Each row then goes through the API's own row validation
(`app.training.riders`), so a file and a `POST /api/v1/riders` body are held to the same rules.

Records are numbered as a spreadsheet numbers its rows: line 1 is the header, and a quoted
field with line breaks stays one record. Plain functions over a file object, run in a thread
by the caller: they parse and validate, nothing here touches the database.
"""

from __future__ import annotations

import codecs
import csv
import io
from collections.abc import Iterator
from dataclasses import dataclass
from operator import itemgetter
from typing import BinaryIO

from app.core.errors import NUL_MESSAGE
from app.training.riders import (
    BLANK_MESSAGE,
    MAX_LENGTHS,
    MAX_RIDERS,
    MISSING_MESSAGE,
    PHONE_MESSAGE,
    STATUS_MESSAGE,
    Rider,
    RowError,
    parse_riders,
)

# The API's field names, in the order they are checked (docs/api-training.md#riders).
FIELDS = (
    "riderId",
    "name",
    "market",
    "phone",
    "city",
    "vehicleType",
    "nationality",
    "language",
    "status",
    "pin",
)
_FIELD_BY_LOWER = {field.lower(): field for field in FIELDS}

NOT_UTF8 = (
    "The file is not UTF-8 text. Save it as \u201cCSV UTF-8\u201d and upload it again; "
    "nothing was saved."
)
NO_HEADER = (
    "The file is empty. Its first line must name the columns, e.g. riderId,name,market; "
    "nothing was saved."
)
ALL_UNKNOWN = (
    "The first line names no rider field. It must name the columns, e.g. riderId,name,market "
    f"(the fields are {', '.join(FIELDS)}); nothing was saved."
)
NO_RIDER_ID = "The first line has no riderId column; nothing was saved."
NO_ROWS = "The file has a header but no rider rows; nothing was saved."


class FileRefused(Exception):
    """The whole file is refused (one message) and nothing is written."""


class Utf8Check:
    """Feed the file's bytes as they arrive; raises FileRefused at the first byte sequence
    that is not UTF-8 (also a sequence cut off at the end)."""

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")()

    def feed(self, data: bytes, final: bool = False) -> None:
        try:
            self._decoder.decode(data, final)
        except UnicodeDecodeError:
            raise FileRefused(NOT_UTF8) from None


@dataclass(frozen=True, slots=True)
class Header:
    cells: list[str]
    columns: dict[int, str]  # cell index -> the API field it names


@dataclass(frozen=True, slots=True)
class Rejected:
    line: int
    cells: list[str]  # the original cells, padded with empty ones to the header's width
    error: str


@dataclass(frozen=True, slots=True)
class Batch:
    riders: list[Rider]  # valid riders, one per riderId (the last valid row wins)
    rejected: list[Rejected]
    last_line: int  # the number of the batch's last record
    # Each valid rider's row (line, cells), for a rider refused after parsing (rider_import.py).
    origin: dict[str, tuple[int, list[str]]]


def read_header(cells: list[str]) -> Header:
    columns = {}
    for index, cell in enumerate(cells):
        field = _FIELD_BY_LOWER.get(cell.strip().lower())
        if field is None:
            continue
        if field in columns.values():
            raise FileRefused(f"The first line names the {field} column twice; nothing was saved.")
        columns[index] = field
    if not columns:
        raise FileRefused(ALL_UNKNOWN)
    if "riderId" not in columns.values():
        raise FileRefused(NO_RIDER_ID)
    return Header(cells, columns)


def _records(text: io.TextIOBase) -> Iterator[tuple[int, list[str] | str]]:
    """(line, cells) of every non-blank record, or (line, error) of one the CSV reader
    refuses (a field over its size limit); the reader goes on after it."""
    reader = csv.reader(text, strict=False)
    line = 0
    while True:
        line += 1
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            yield line, f"not a CSV record: {exc}"
            continue
        if cells:
            yield line, cells


class RiderFile:
    """An uploaded file read record by record: `header()` first, then `batch()` until None.
    Each call does a bounded piece of work (at most MAX_RIDERS records), so the caller can
    run it in a thread and save one batch while the next is parsed."""

    def __init__(self, upload: BinaryIO) -> None:
        self._text = io.TextIOWrapper(upload, encoding="utf-8-sig", newline="")
        self._records = _records(self._text)
        self._header: Header | None = None
        self._fields: tuple[str, ...] = ()
        self._cells_of_fields = None

    def header(self) -> Header:
        first = next(self._records, None)
        if first is None:
            raise FileRefused(NO_HEADER)
        _, cells = first
        if isinstance(cells, str):
            raise FileRefused(ALL_UNKNOWN)
        self._header = read_header(cells)
        self._fields = tuple(self._header.columns.values())
        # The known fields' cells of a row in one C call (a tuple even for a single column).
        getter = itemgetter(*self._header.columns)
        self._cells_of_fields = getter if len(self._fields) > 1 else lambda row: (getter(row),)
        return self._header

    def batch(self, size: int = MAX_RIDERS) -> Batch | None:
        """The next `size` records as saved riders and rejected rows; None at the end."""
        assert self._header is not None, "header() comes first"
        width = len(self._header.cells)
        lines, rows, rejected, last_line = [], [], [], 0
        for line, cells in self._records:
            last_line = line
            if isinstance(cells, str):
                rejected.append(Rejected(line, [""] * width, cells))
            elif len(cells) != width:
                padded = cells + [""] * (width - len(cells))
                rejected.append(Rejected(line, padded, _width_error(width, len(cells))))
            else:
                lines.append((line, cells))
                rows.append(self._row(cells))
            if len(lines) + len(rejected) == size:
                break
        if not last_line:
            return None
        riders, errors = parse_riders(rows)
        invalid = set()
        for index, error in errors:
            invalid.add(index)
            line, cells = lines[index]
            rejected.append(Rejected(line, cells, plain_words(error)))
        rejected.sort(key=lambda row: row.line)
        # A valid row's riderId is its cell trimmed; a later row of the same rider wins, as in
        # parse_riders.
        origin = {
            rows[index]["riderId"].strip(): lines[index]
            for index in range(len(lines))
            if index not in invalid
        }
        return Batch(riders, rejected, last_line, origin)

    def close(self) -> None:
        """Done reading; the upload stays open (its owner closes it)."""
        self._text.detach()

    def _row(self, cells: list[str]) -> dict[str, str]:
        """The rider row the API would get: an empty cell is an omitted field."""
        return {
            field: cell
            for field, cell in zip(self._fields, self._cells_of_fields(cells), strict=True)
            if cell
        }


# The API's messages (docs/api-training.md#riders) name no field; a person fixing a spreadsheet
# reads these instead (docs/csv.md), each naming its column.
PLAIN_WORDS = {
    MISSING_MESSAGE: "{field} is missing: every row needs one",
    BLANK_MESSAGE: "{field} is blank: every row needs one",
    STATUS_MESSAGE: "status must be onboarding, active, suspended or inactive (small letters)",
    PHONE_MESSAGE: "phone must look like +971501234567 (a + and the country code)",
    NUL_MESSAGE: "{field} holds a NUL character (U+0000) that cannot be stored",
}


def plain_words(error: RowError) -> str:
    """A row's error as the import page shows it: in plain words, naming the column."""
    field = error.field
    if error.message.startswith("Too big"):
        return f"{field} is too long: at most {MAX_LENGTHS[field]:,} characters"
    wording = PLAIN_WORDS.get(error.message)
    if wording is not None:
        return wording.format(field=field)
    return error.message if error.message.startswith(f"{field} ") else f"{field}: {error.message}"


def _width_error(expected: int, found: int) -> str:
    return f"the row has {found} cells, the header has {expected}"


def csv_text(cells: list[str]) -> str:
    """One CSV record (RFC 4180 quoting), without the line end."""
    out = io.StringIO()
    # The writer quotes a field with a line break only when the break is in its terminator.
    csv.writer(out, lineterminator="\r\n").writerow(cells)
    # PostgreSQL cannot store U+0000 (a row holding it is rejected for it): kept visible.
    return out.getvalue().removesuffix("\r\n").replace("\x00", "\ufffd")
