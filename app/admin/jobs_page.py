"""The jobs page: recent runs with their outcome and result line, and Run now for reminders and
backup (the same code as the schedule and `run-job`, recorded with the admin who started it);
the AI's generation and translation runs, each with its own page."""

from __future__ import annotations

import asyncio

import structlog
from aiohttp import web
from marshmallow import Schema

from app.admin import notices, roles
from app.admin.guard import ADMIN, actor
from app.admin.layout import render
from app.ai import runner
from app.core import audit, pages, sql
from app.core.errors import ApiError
from app.core.fields import Integer
from app.core.forms import read
from app.core.keys import DATABASE_URL, POOL, SETTINGS
from app.training.languages import NAMES
from jobs import JOBS, JobContext, JobFailed
from jobs.reminders import ASSIGNMENTS_PER_RUN
from jobs.scheduler import JobLocked, run_locked

log = structlog.get_logger("admin.jobs")

routes = web.RouteTableDef()

SQL = sql.load("admin", "job_runs_page", "reminder_preview")


RUNS_SHOWN = 50
RUNNABLE = ("reminders", "backup", "reports")
# Long enough for a quick run to be listed finished on the next page; a reminders run of
# thousands of riders goes on in the background (the page then shows it running).
WAIT_SECONDS = 2.0
# Runs started here, kept referenced until they end (a task nobody holds may be collected).
_running: set[asyncio.Task] = set()


async def _jobs_page(request, status=200, *, problem=None):
    context = {
        "runs": await request.app[POOL].fetch(SQL.job_runs_page, RUNS_SHOWN),
        "ai_jobs": await runner.recent(request.app[POOL], RUNS_SHOWN),
        "runnable": RUNNABLE,
        "problem": problem,
    }
    return render(request, "admin/jobs.html", context, status=status)


@routes.get("/admin/jobs")
@roles.needs("viewer")
async def jobs_page(request: web.Request) -> web.Response:
    return await _jobs_page(request)


async def _run(name: str, context: JobContext, admin_id: int, who: audit.Actor) -> None:
    try:
        result = await run_locked(JOBS[name], context, started_by=admin_id, actor=who)
    except JobFailed as exc:
        log.error("job failed", job=name, error=str(exc), started_by=admin_id)
    except JobLocked:
        raise
    except Exception:
        log.exception("job failed", job=name, started_by=admin_id)
    else:
        log.info("job run", job=name, result=result, started_by=admin_id)


class RunForm(Schema):
    # The riders the confirmation counted: a run that would now message another number is
    # asked again (docs/admin-panel.md, "Asked first").
    expected_count = Integer()


async def _confirm_reminders(request: web.Request, status: int = 200, *, changed: bool = False):
    """The page that asks before messaging riders, with the count a run would message now."""
    preview = await request.app[POOL].fetchrow(SQL.reminder_preview, ASSIGNMENTS_PER_RUN)
    riders, assignments = preview["riders"], preview["assignments"]
    facts = [
        f"{riders} riders get a text message now, naming {assignments} open assignments "
        "(overdue ones first), each with a one-tap link. It cannot be called back.",
        "Reminders also run by themselves every day at 09:00 server time.",
    ]
    context = {
        "title": f"Send reminders to {riders} riders now?",
        "facts": facts,
        "action": "/admin/jobs/reminders/run",
        "fields": {"expected_count": riders},
        "button": f"Remind {riders} riders",
        "back": "/admin/jobs",
        "back_text": "Cancel",
        "problem": (
            f"Nothing was sent: the riders to remind changed; {riders} riders would now get one."
            if changed
            else None
        ),
    }
    return render(request, "admin/confirm.html", context, status=status)


@routes.get("/admin/jobs/reminders/run")
@roles.needs("owner")
async def reminders_page(request: web.Request) -> web.Response:
    return await _confirm_reminders(request)


@routes.post("/admin/jobs/{job}/run")
@roles.needs("owner")
async def run_now(request: web.Request) -> web.Response:
    name = request.match_info["job"]
    if name not in RUNNABLE:
        raise web.HTTPNotFound
    if name == "reminders":
        values, errors = read(RunForm(), await request.post())
        expected = None if errors else values.get("expected_count")
        if expected is None:
            return await _confirm_reminders(request)
        riders = await request.app[POOL].fetchval(SQL.reminder_preview, ASSIGNMENTS_PER_RUN)
        if riders != expected:
            return await _confirm_reminders(request, 409, changed=True)
    task = await start(request, name)
    if task.done() and isinstance(task.exception(), JobLocked):
        return await _jobs_page(request, 409, problem=str(task.exception()))
    started = (
        "finished: see its result below" if task.done() else "started; it goes on in the background"
    )
    return await notices.see_other(request, "/admin/jobs", f"The {name} run {started}.")


async def start(request: web.Request, name: str) -> asyncio.Task:
    """Start a run of the job `name` for the signed-in admin, as the schedule runs it (so it is
    recorded on the jobs page), and wait up to WAIT_SECONDS for it: the task, done or not."""
    app = request.app
    context = JobContext(settings=app[SETTINGS], pool=app[POOL], database_url=app[DATABASE_URL])
    task = asyncio.create_task(_run(name, context, request[ADMIN].admin_id, actor(request)))
    _running.add(task)
    task.add_done_callback(_running.discard)
    await asyncio.wait({task}, timeout=WAIT_SECONDS)
    return task


@routes.get("/admin/jobs/{job_id}")
@roles.needs("viewer")
async def ai_job_page(request: web.Request) -> web.Response:
    job = await runner.find(request.app[POOL], pages.uuid_in_path(request, "job_id"))
    if job is None:
        raise ApiError(404, "Job not found")
    return render(request, "admin/ai_job.html", {"job": job, "languages": NAMES})
