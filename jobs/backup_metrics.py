"""The backups' gauges, read from the database at each scrape (app/core/metrics.py's
readings): the last backup (its finish, size, duration) and the restore drill's last success."""

from __future__ import annotations

from app.core import metrics, sql

SQL = sql.load("jobs", "backup_readings")


def _reader(column: str, *, never: float | None):
    """Reads `column` of backup_readings; `never` is the value before the first success
    (None: no sample)."""

    async def read(pool):
        found = (await pool.fetchrow(SQL.backup_readings))[column]
        value = found if found is not None else never
        return [] if value is None else [((), value)]

    return read


READERS = {
    metrics.BACKUP_LAST_SUCCESS: _reader("backup_finished", never=0.0),
    metrics.BACKUP_SIZE: _reader("backup_bytes", never=None),
    metrics.BACKUP_DURATION: _reader("backup_seconds", never=None),
    metrics.RESTORE_DRILL_LAST_SUCCESS: _reader("drill_succeeded", never=0.0),
}
