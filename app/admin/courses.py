"""Courses in the panel (docs/admin-panel.md#courses): list, editor, export and import.

The editor posts §10's course document as numbered rows (`app.admin.course_form.read_course`),
validated by `app.training.course_document` and saved by `app.training.courses`, the same
functions load-data and the AI jobs use. Buttons other than Save (add a row, move one up,
remove one) re-post the form and show it changed, without saving, so it works without
JavaScript.
"""

from __future__ import annotations

import json

import asyncpg
import orjson
from aiohttp import web
from marshmallow import EXCLUDE, ValidationError

from app.admin import notices, roles
from app.admin.course_form import read_course
from app.admin.guard import actor
from app.admin.layout import render
from app.core import audit, pages, sql, uploads
from app.core.forms import first_error
from app.core.http import MiB
from app.core.keys import POOL
from app.training import courses
from app.training.course_document import OPTIONS_MAX, CourseDocumentSchema
from app.training.languages import NAMES, TRANSLATION_LANGUAGES

routes = web.RouteTableDef()

SQL = sql.load("admin", "course_list")


async def _course_list(pool: asyncpg.Pool) -> list[asyncpg.Record]:
    return await pool.fetch(SQL.course_list)


# A UUID in the address; other words stay free for other pages (`/admin/courses/generate`).
COURSE = "/admin/courses/{course_id:[0-9a-fA-F]{8}-[0-9a-fA-F-]{27}}"
LANGUAGE = "{language:ar|ur|ku}"
# Blank lesson and question rows under the course's own, one more after "Add another": room
# to write without JavaScript.
BLANK_ROWS = 1
NEW_COURSE = {
    "title": "",
    "pass_mark": "70",
    "published": False,
    "lessons": [],
    "quiz": [],
    "extra_lesson": 1,
    "extra_question": 1,
}
# A course document is at most about 650,000 characters (course_document.py), up to 4 bytes
# each in UTF-8.
IMPORT_MAX_BYTES = 3 * MiB


async def read_course_or_404(request: web.Request, language: str = "en") -> courses.Course:
    async with request.app[POOL].acquire() as conn:
        course = await courses.read_course(conn, pages.uuid_in_path(request, "course_id"), language)
    if course is None:
        raise web.HTTPNotFound
    return course


def editor_values(course: courses.Course) -> dict:
    """The editor's values of a stored course."""
    return {
        "title": course.title,
        "pass_mark": "" if course.pass_mark is None else str(course.pass_mark),
        "published": course.published,
        "lessons": course.lessons,
        "quiz": course.quiz,
    }


def apply_action(values: dict, action: str) -> dict:
    """The editor's values after a button other than Save: `add_lesson`, `add_question`,
    `up_lesson_<i>`, `remove_lesson_<i>`, `up_question_<q>`, `remove_question_<q>`."""
    rows = {"lesson": values["lessons"], "question": values["quiz"]}
    verb, _, rest = action.partition("_")
    kind, _, number = rest.partition("_")
    if verb == "add" and kind in rows:
        values["extra_" + kind] = 1
    elif kind in rows and number.isascii() and number.isdigit() and len(number) <= 4:
        index, items = int(number), rows[kind]
        if verb == "remove" and index < len(items):
            del items[index]
        elif verb == "up" and 0 < index < len(items):
            items[index - 1], items[index] = items[index], items[index - 1]
    return values


async def _editor(request, *, course=None, values, errors=None, status=200, changed=False):
    context = {
        "course": course,
        "values": values,
        "errors": errors or {},
        "changed": changed,
        "blank_lessons": BLANK_ROWS + values.get("extra_lesson", 0),
        "blank_questions": BLANK_ROWS + values.get("extra_question", 0),
        "options_max": OPTIONS_MAX,
        "translations": [],
        "language_names": NAMES,
    }
    if course is not None:
        async with request.app[POOL].acquire() as conn:
            states = {
                t["language"]: t for t in await courses.translation_states(conn, course.course_id)
            }
        context["translations"] = [(lang, states.get(lang)) for lang in TRANSLATION_LANGUAGES]
    return render(request, "admin/courses/editor.html", context, status=status)


async def _submit(request: web.Request, course: courses.Course | None) -> web.Response:
    form = await request.post()
    values, document, errors = read_course(CourseDocumentSchema(), form)
    action = form.get("action", "save")
    if action != "save":
        values = apply_action(values, action if isinstance(action, str) else "")
        return await _editor(request, course=course, values=values, changed=True)
    if errors:
        return await _editor(request, course=course, values=values, errors=errors, status=400)
    # The id from the address: asyncpg's own UUID type (course.course_id) is no JSON value.
    course_id = pages.uuid_in_path(request, "course_id") if course else None
    action = "course.saved" if course else "course.created"
    course_id = await _save(request, action, document, course_id, values["published"])
    done = "saved" if course else "created"
    return await _saved(request, course_id, f"Course “{document['title']}” {done}.")


async def _saved(request: web.Request, course_id, message: str) -> web.Response:
    """303 to the course's editor, which says `message` once."""
    return await notices.see_other(request, f"/admin/courses/{course_id}", message)


async def _save(request, action: str, document: dict, course_id=None, published=None):
    """Save the course document with its audit event `action`; the course's id."""
    async with request.app[POOL].acquire() as conn, conn.transaction():
        course_id = await courses.save_course(conn, document, course_id, published)
        fields = {
            "title": document["title"],
            "lessons": len(document["lessons"]),
            "questions": len(document["quiz"]),
            "published": published,
        }
        await audit.record(conn, actor(request), action, str(course_id), audit.described(fields))
    return course_id


@routes.get("/admin/courses")
@roles.needs("viewer")
async def list_courses(
    request: web.Request, *, import_error: str | None = None, status: int = 200
) -> web.Response:
    """The courses; an import's POST shows it again with `status` and why it was refused."""
    context = {
        "courses": await _course_list(request.app[POOL]),
        "languages": TRANSLATION_LANGUAGES,
        "import_error": import_error,
    }
    return render(request, "admin/courses/list.html", context, status=status)


@routes.get("/admin/courses/new")
@roles.needs("editor")
async def new_course_page(request: web.Request) -> web.Response:
    return await _editor(request, values=dict(NEW_COURSE))


@routes.post("/admin/courses/new")
@roles.needs("editor")
async def create_course(request: web.Request) -> web.Response:
    return await _submit(request, None)


class ImportRefused(Exception):
    pass


@routes.post("/admin/courses/import")
@roles.needs("editor")
async def import_course(request: web.Request) -> web.Response:
    """A course document file (the export's shape) becomes a new, unpublished course."""
    try:
        document = CourseDocumentSchema(unknown=EXCLUDE).load(await _uploaded_json(request))
    except ImportRefused as exc:
        return await list_courses(request, import_error=str(exc), status=400)
    except ValidationError as exc:
        return await list_courses(request, import_error=_where(exc.messages), status=400)
    course_id = await _save(request, "course.imported", document, published=False)
    message = f"Course “{document['title']}” imported, unpublished: check it, then publish it."
    return await _saved(request, course_id, message)


async def _uploaded_json(request: web.Request):
    """The JSON value of the multipart field `file`, read up to IMPORT_MAX_BYTES."""
    try:
        part = await uploads.file_part(request, IMPORT_MAX_BYTES)
        data = b"" if part is None else await uploads.content(part, IMPORT_MAX_BYTES)
    except uploads.TooLarge:
        raise ImportRefused("The file is larger than 3 MB: it is not a course document.") from None
    if not data:
        raise ImportRefused("Choose a course file (.json) to import.")
    # orjson refuses what PostgreSQL and Python would fail on later: a lone surrogate
    # ("\ud800"), a number too large for a double, nesting past 1,024 levels.
    try:
        return orjson.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise ImportRefused("The file is not UTF-8 text.") from None
    except orjson.JSONDecodeError as exc:
        raise ImportRefused(f"The file is not valid JSON: {exc}.") from None


def _where(messages) -> str:
    """The first problem of a document as `quiz[0].correct: message`."""
    keys, message = first_error(messages)
    path = "".join(f"[{key}]" if isinstance(key, int) else f".{key}" for key in keys)[1:]
    if path == "_schema":
        return f"The file is not a course document: {message}"
    return f"{path}: {message}" if path else message


@routes.get(COURSE)
@roles.needs("viewer")
async def course_page(request: web.Request) -> web.Response:
    course = await read_course_or_404(request)
    return await _editor(request, course=course, values=editor_values(course))


@routes.post(COURSE)
@roles.needs("editor")
async def save_course(request: web.Request) -> web.Response:
    return await _submit(request, await read_course_or_404(request))


@routes.get(COURSE + "/export.json")
@roles.needs("viewer")
async def export_course(request: web.Request) -> web.Response:
    """The course document, with the course's id (so load-data can read it as a record)."""
    course = await read_course_or_404(request)
    if not course.has_content:
        raise web.HTTPNotFound
    document = {"id": str(course.course_id), **course.document()}
    return web.Response(
        text=json.dumps(document, ensure_ascii=False, indent=2),
        content_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="course-{course.course_id}.json"'},
    )
