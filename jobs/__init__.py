"""Scheduled jobs: each runs on its cron schedule inside `serve`, or once with `run-job`."""

from jobs import backup, housekeeping, reminders, reports, restore_drill
from jobs.job import Job, JobContext, JobFailed

JOBS = {
    job.name: job
    for job in (backup.JOB, housekeeping.JOB, reminders.JOB, reports.JOB, restore_drill.JOB)
}

__all__ = ["JOBS", "Job", "JobContext", "JobFailed"]
