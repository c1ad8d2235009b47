"""CSV files the panel hands out (DESIGN §8, CSV exports): RFC 4180 text with a formula guard.

A spreadsheet runs a cell that starts with `=`, `+`, `-` or `@` (and, in some, a tab or a
carriage return) as a formula: a rider named `=HYPERLINK(…)` must stay text. Such a cell gets a
leading `'`, except a cell that is entirely a number (a phone `+971501234567`, a score), which
a spreadsheet reads as that number anyway.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Sequence

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")

# Spreadsheets read a file without it as their local code page, which garbles Arabic names.
BOM = "\ufeff"


def guard(cell: str | None) -> str | None:
    if cell and cell.startswith(FORMULA_STARTS) and not _NUMBER.fullmatch(cell):
        return "'" + cell
    return cell


def csv_rows(rows: Iterable[Sequence[str | None]]) -> str:
    """CSV text of the rows (every cell guarded; None is an empty cell), each ending CRLF."""
    out = io.StringIO()
    csv.writer(out).writerows([guard(cell) for cell in row] for row in rows)
    return out.getvalue()
