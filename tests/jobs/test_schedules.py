"""The jobs run when docs/jobs.md says: each job's cron string, read by the same cron parser
aiocron schedules with, fires at the table's times and at no other."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from pathlib import Path

from cronsim import CronSim

from jobs import JOBS

DOCS = Path(__file__).resolve().parents[2] / "docs" / "jobs.md"
ROW = re.compile(r"^\| `([\w-]+)` \| ([^|]+?) \|", re.MULTILINE)
START = datetime(2026, 3, 1)  # a Sunday at midnight; two days of firings from it


def _documented() -> dict[str, str]:
    table = DOCS.read_text().split("| job | when", 1)[1].split("\n\n", 1)[0]
    return dict(ROW.findall(table))


def _expected_firings(when: str) -> list[datetime]:
    if daily := re.fullmatch(r"daily (\d\d):(\d\d)", when):
        hour, minute = int(daily[1]), int(daily[2])
        return [START + timedelta(days=d, hours=hour, minutes=minute) for d in range(2)]
    if weekly := re.fullmatch(r"Sundays (\d\d):(\d\d) UTC \(whatever the server's zone\)", when):
        return [START + timedelta(hours=int(weekly[1]), minutes=int(weekly[2]))]
    every = re.fullmatch(r"every (\d+) minutes", when)
    assert every, f"docs/jobs.md: no reading of {when!r}"
    step = timedelta(minutes=int(every[1]))
    return [START + step * n for n in range(1, int(timedelta(days=2) / step) + 1)]


def _firings(schedule: str) -> list[datetime]:
    found = []
    for when in CronSim(schedule, START):
        if when > START + timedelta(days=2):
            return found
        found.append(when)
    return found


def test_every_job_is_in_the_table_and_every_row_is_a_job():
    assert (
        sorted(_documented())
        == sorted(JOBS)
        == ["backup", "housekeeping", "reminders", "reports", "restore-drill"]
    )


def test_each_job_fires_at_the_documented_times():
    for name, when in _documented().items():
        assert _firings(JOBS[name].schedule) == _expected_firings(when), name
