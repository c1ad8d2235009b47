"""Hand-written SQL, one statement a file in `sql/<family>/<name>.sql`.

A family names every statement it uses when its module is imported, which happens while the
application is built: a missing file stops the start, not the first request.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

SQL_DIR = Path(__file__).resolve().parents[2] / "sql"


class SqlFileMissing(Exception):
    pass


def load(family: str, *names: str) -> SimpleNamespace:
    """Read `sql/<family>/<name>.sql` for every name; attributes are the statements' text."""
    statements = {}
    for name in names:
        path = SQL_DIR / family / f"{name}.sql"
        try:
            statements[name] = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise SqlFileMissing(f"SQL file missing: {path}") from None
    return SimpleNamespace(**statements)
