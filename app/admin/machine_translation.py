"""Translating a course with AI (`/admin/courses/{course_id}/translate`): the machine
translation replaces the language's current one."""

from __future__ import annotations

from aiohttp import web
from marshmallow import Schema, fields, validate

from app.admin import layout, roles
from app.admin.generate import NOT_CONFIGURED
from app.admin.guard import ADMIN, actor
from app.ai import runner
from app.core import pages
from app.core.errors import ApiError
from app.core.forms import read
from app.core.keys import POOL, SETTINGS
from app.training import courses
from app.training.languages import NAMES, TRANSLATION_LANGUAGES

routes = web.RouteTableDef()


class TranslateForm(Schema):
    language = fields.String(
        required=True,
        validate=validate.OneOf(
            TRANSLATION_LANGUAGES, error="Choose Arabic, Urdu or Kurdish (ar, ur or ku)."
        ),
    )


async def _course(request: web.Request) -> courses.Course:
    async with request.app[POOL].acquire() as conn:
        course = await courses.read_course(conn, pages.uuid_in_path(request, "course_id"))
    if course is None:
        raise ApiError(404, "Course not found")
    return course


def _translate_page(request, course, status=200, *, values=None, errors=None, problem=None):
    context = {
        "course": course,
        "languages": {code: NAMES[code] for code in TRANSLATION_LANGUAGES},
        "values": values or {},
        "errors": errors or {},
        "problem": problem,
    }
    return layout.render(request, "admin/courses/translate.html", context, status=status)


@routes.get("/admin/courses/{course_id}/translate")
@roles.needs("editor")
async def translate_page(request: web.Request) -> web.Response:
    return _translate_page(request, await _course(request))


@routes.post("/admin/courses/{course_id}/translate")
@roles.needs("editor")
async def translate(request: web.Request) -> web.StreamResponse:
    course = await _course(request)
    values, errors = read(TranslateForm(), await request.post())
    if not request.app[SETTINGS].ai_configured:
        return _translate_page(request, course, 503, values=values, problem=NOT_CONFIGURED)
    if errors:
        return _translate_page(request, course, 400, values=values, errors=errors)
    if not course.has_content:
        problem = "This course has no lessons to translate yet."
        return _translate_page(request, course, 400, values=values, problem=problem)
    job_id = await runner.start_translation(
        request.app, actor(request), request[ADMIN].admin_id, course.course_id, values["language"]
    )
    return pages.see_other(f"/admin/jobs/{job_id}")
