"""Scheduled jobs: each runs on its cron schedule inside `serve`, or once with `run-job`."""

from jobs import backup as _backup  # noqa: F401 - registers the job
from jobs import housekeeping as _housekeeping  # noqa: F401 - registers the job
from jobs import reminders as _reminders  # noqa: F401 - registers the job
from jobs import reports as _reports  # noqa: F401 - registers the job
from jobs.registry import JOBS, Job, JobContext, JobFailed

__all__ = ["JOBS", "Job", "JobContext", "JobFailed"]
