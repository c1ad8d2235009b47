"""Generating a draft course with AI from an uploaded source (`/admin/courses/generate`)."""

from __future__ import annotations

from aiohttp import web

from app.admin import layout, roles
from app.admin.guard import ADMIN, actor
from app.ai import runner, sources
from app.core import pages, uploads
from app.core.keys import SETTINGS

NOT_CONFIGURED = "AI is not configured: set AI_API_KEY and AI_MODEL (see docs/ai.md)."
SOURCE_TYPES = "a PDF, a SCORM package (.zip), or a .txt or .md file"

routes = web.RouteTableDef()


@routes.get("/admin/courses/generate")
@roles.needs("editor")
async def generate_page(
    request: web.Request, status: int = 200, error: str | None = None
) -> web.Response:
    """The upload form; its POST shows it again with `status` and why the upload was refused."""
    context = {"upload_error": error}
    return layout.render(request, "admin/courses/generate.html", context, status=status)


@routes.post("/admin/courses/generate")
@roles.needs("editor")
async def generate(request: web.Request) -> web.StreamResponse:
    if not request.app[SETTINGS].ai_configured:
        return await generate_page(request, 503, NOT_CONFIGURED)
    try:
        name, data = await uploads.read_file(request, sources.FILE_LIMIT)
    except uploads.UploadRefused as exc:
        return await generate_page(request, exc.status, exc.message)
    if sources.kind_of(name, sources.SOURCE_KINDS) is None:
        return await generate_page(request, 400, f"Upload {SOURCE_TYPES}.")
    job_id = await runner.start_generation(
        request.app, actor(request), request[ADMIN].admin_id, data, name
    )
    return pages.see_other(f"/admin/jobs/{job_id}")
