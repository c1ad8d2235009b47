"""Scheduled jobs: each runs on its cron schedule inside `serve`, or once with `run-job`."""

from jobs import backup, housekeeping, reminders, reports
from jobs.job import Job, JobContext, JobFailed

JOBS = {job.name: job for job in (backup.JOB, housekeeping.JOB, reminders.JOB, reports.JOB)}

__all__ = ["JOBS", "Job", "JobContext", "JobFailed"]
