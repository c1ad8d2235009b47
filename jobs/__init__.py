"""Scheduled jobs: each runs on its cron schedule inside `serve`, or once with `run-job`."""

from jobs.registry import JOBS, Job, JobContext, JobFailed

__all__ = ["JOBS", "Job", "JobContext", "JobFailed"]
