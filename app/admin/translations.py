"""A course's translations in the panel (`/admin/courses/{course_id}/translations/...`): an
admin writes or corrects one (a reviewed translation), or marks the machine's reviewed."""

from __future__ import annotations

from aiohttp import web

from app.admin import notices, roles
from app.admin.course_form import read_translation
from app.admin.courses import COURSE, LANGUAGE, read_course_or_404
from app.admin.guard import actor
from app.admin.layout import render
from app.core import audit, pages
from app.core.keys import POOL
from app.training import courses
from app.training.course_document import TranslationSchema
from app.training.languages import NAMES

routes = web.RouteTableDef()


async def _translation_page(request, course, language, *, values, errors=None, status=200):
    context = {
        "course": course,
        "language": language,
        "language_name": NAMES[language],
        "values": values,
        "errors": errors or {},
    }
    return render(request, "admin/courses/translation.html", context, status=status)


async def _course_to_translate(request: web.Request):
    """The address's language and course (in its own language); 404 without content."""
    course = await read_course_or_404(request)
    if not course.has_content:
        raise web.HTTPNotFound
    return request.match_info["language"], course


@routes.get(COURSE + "/translations/" + LANGUAGE)
@roles.needs("viewer")
async def translation_page(request: web.Request) -> web.Response:
    language, course = await _course_to_translate(request)
    translated = await read_course_or_404(request, language)
    values = {"title": "", "lessons": [{}] * len(course.lessons), "quiz": [{}] * len(course.quiz)}
    if translated.language == language:
        values = {
            "title": translated.title,
            "lessons": translated.lessons,
            "quiz": translated.quiz,
            "state": translated.translation_state,
        }
    return await _translation_page(request, course, language, values=values)


@routes.post(COURSE + "/translations/" + LANGUAGE)
@roles.needs("editor")
async def save_translation(request: web.Request) -> web.Response:
    """An admin's translation is a reviewed one."""
    language, course = await _course_to_translate(request)
    values, translation, errors = read_translation(
        TranslationSchema(), await request.post(), course
    )
    if not errors:
        try:
            course_id = pages.uuid_in_path(request, "course_id")
            async with request.app[POOL].acquire() as conn, conn.transaction():
                await courses.save_translation(conn, course_id, language, translation, "reviewed")
                summary = f"language {language}, written by the admin (reviewed)"
                await audit.record(
                    conn, actor(request), "translation.saved", str(course_id), summary
                )
        except courses.TranslationMismatch as exc:  # the course changed meanwhile
            errors = {
                "course": f"The course changed while you wrote: {exc.message}. Reload the page."
            }
    if errors:
        return await _translation_page(
            request, course, language, values=values, errors=errors, status=400
        )
    message = f"The {NAMES[language]} translation is saved, as reviewed."
    return await notices.see_other(request, f"/admin/courses/{course.course_id}", message)


@routes.post(COURSE + "/translations/" + LANGUAGE + "/review")
@roles.needs("editor")
async def review_translation(request: web.Request) -> web.Response:
    language = request.match_info["language"]
    course_id = pages.uuid_in_path(request, "course_id")
    async with request.app[POOL].acquire() as conn, conn.transaction():
        if not await courses.mark_reviewed(conn, course_id, language):
            raise web.HTTPNotFound
        summary = f"language {language}"
        await audit.record(conn, actor(request), "translation.reviewed", str(course_id), summary)
        message = f"The {NAMES[language]} translation is marked reviewed."
        return await notices.see_other(request, f"/admin/courses/{course_id}", message, conn)
