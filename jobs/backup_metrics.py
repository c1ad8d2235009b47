"""The backups' gauges, read from the database at each scrape (app/core/metrics.py's
readings): the last backup (its finish, size, duration) and the restore drill's last success."""

from __future__ import annotations

from app.core import metrics, sql

SQL = sql.load("jobs", "backup_readings")


def _reader(column: str):
    """Reads `column` of backup_readings; 0 before the first success, so that an alert on
    "too long ago" fires for a service that never had one."""

    async def read(pool):
        found = (await pool.fetchrow(SQL.backup_readings))[column]
        return [((), found or 0.0)]

    return read


READERS = {
    metrics.BACKUP_LAST_SUCCESS: _reader("backup_finished"),
    metrics.BACKUP_SIZE: _reader("backup_bytes"),
    metrics.BACKUP_DURATION: _reader("backup_seconds"),
    metrics.RESTORE_DRILL_LAST_SUCCESS: _reader("drill_succeeded"),
}
