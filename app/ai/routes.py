"""The AI pages: course generation and translation, their job pages and the knowledge
documents in the panel (`/admin`), and the riders' assistant (`/training/assistant`)."""

from __future__ import annotations

import asyncio
import uuid

import structlog
from aiohttp import web

from app.admin.forms import read
from app.admin.guard import ADMIN
from app.admin.routes import panel
from app.ai import assistant, extraction, jobs, sources, store, uploads
from app.ai.client import PROVIDER, ProviderError
from app.ai.forms import LANGUAGE_LABELS, TranslateForm
from app.ai.texts import texts
from app.core import pages
from app.core.errors import ApiError
from app.core.keys import POOL, SETTINGS
from app.rider import layout
from app.rider.guard import RIDER
from app.training import courses

log = structlog.get_logger("ai")

routes = web.RouteTableDef()

NOT_CONFIGURED = "AI is not configured: set AI_API_KEY and AI_MODEL (see the README's AI section)."
PASSAGE_CHARS = 1_500
SOURCE_TYPES = "a PDF, a SCORM package (.zip), or a .txt or .md file"
KNOWLEDGE_TYPES = "a PDF, or a .txt or .md file"


def _configured(request: web.Request) -> bool:
    return request.app[SETTINGS].ai_configured


def _uuid(text: str) -> uuid.UUID:
    try:
        return uuid.UUID(text)
    except ValueError:
        raise ApiError(404, "Not found") from None


def _integer_id(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or len(text) > 18:
        raise ApiError(404, "Not found")
    return int(text)


# ---------------------------------------------------------------- generation and translation


def _generate_page(request: web.Request, status: int = 200, error: str | None = None):
    context = {"ai_configured": _configured(request), "upload_error": error}
    return panel(request, "ai/generate.html", context, status=status)


@routes.get("/admin/courses/generate")
async def generate_page(request: web.Request) -> web.Response:
    return _generate_page(request)


@routes.post("/admin/courses/generate")
async def generate(request: web.Request) -> web.StreamResponse:
    if not _configured(request):
        return _generate_page(request, 503, NOT_CONFIGURED)
    try:
        name, data = await uploads.read_file(request, sources.FILE_LIMIT)
    except uploads.UploadRefused as exc:
        return _generate_page(request, exc.status, exc.message)
    if sources.kind_of(name, sources.SOURCE_KINDS) is None:
        return _generate_page(request, 400, f"Upload {SOURCE_TYPES}.")
    job_id = await store.add_generation_job(request.app[POOL], request[ADMIN].admin_id, data, name)
    jobs.wake(request.app)
    return pages.see_other(f"/admin/jobs/{job_id}")


async def _course(request: web.Request) -> courses.Course:
    async with request.app[POOL].acquire() as conn:
        course = await courses.read_course(conn, _uuid(request.match_info["course_id"]))
    if course is None:
        raise ApiError(404, "Course not found")
    return course


def _translate_page(request, course, status=200, *, values=None, errors=None, problem=None):
    context = {
        "ai_configured": _configured(request),
        "course": course,
        "course_id": course.course_id,
        "languages": LANGUAGE_LABELS,
        "values": values or {},
        "errors": errors or {},
        "problem": problem,
    }
    return panel(request, "ai/translate.html", context, status=status)


@routes.get("/admin/courses/{course_id}/translate")
async def translate_page(request: web.Request) -> web.Response:
    return _translate_page(request, await _course(request))


@routes.post("/admin/courses/{course_id}/translate")
async def translate(request: web.Request) -> web.StreamResponse:
    course = await _course(request)
    values, errors = read(TranslateForm(), await request.post())
    if not _configured(request):
        return _translate_page(request, course, 503, values=values, problem=NOT_CONFIGURED)
    if errors:
        return _translate_page(request, course, 400, values=values, errors=errors)
    if not course.has_content:
        return _translate_page(
            request,
            course,
            400,
            values=values,
            problem="This course has no lessons to translate yet.",
        )
    job_id = await store.add_translation_job(
        request.app[POOL], request[ADMIN].admin_id, course.course_id, values["language"]
    )
    jobs.wake(request.app)
    return pages.see_other(f"/admin/jobs/{job_id}")


@routes.get("/admin/jobs/{job_id}")
async def job_page(request: web.Request) -> web.Response:
    job = await store.job(request.app[POOL], _uuid(request.match_info["job_id"]))
    if job is None:
        raise ApiError(404, "Job not found")
    return panel(request, "ai/job.html", {"job": job, "languages": LANGUAGE_LABELS})


# ---------------------------------------------------------------- knowledge documents


async def _knowledge_page(request: web.Request, status: int = 200, error: str | None = None):
    context = {
        "ai_configured": _configured(request),
        "upload_error": error,
        "documents": await store.knowledge_documents(request.app[POOL]),
        "limit_mb": sources.FILE_LIMIT // sources.MiB,
    }
    return panel(request, "ai/knowledge.html", context, status=status)


@routes.get("/admin/knowledge")
async def knowledge_page(request: web.Request) -> web.Response:
    return await _knowledge_page(request)


@routes.post("/admin/knowledge")
async def upload_knowledge(request: web.Request) -> web.StreamResponse:
    try:
        name, data = await uploads.read_file(request, sources.FILE_LIMIT)
    except uploads.UploadRefused as exc:
        return await _knowledge_page(request, exc.status, exc.message)
    kind = sources.kind_of(name, sources.KNOWLEDGE_KINDS)
    if kind is None:
        return await _knowledge_page(request, 400, f"Upload {KNOWLEDGE_TYPES}.")
    try:
        text = await extraction.text_of(kind, data, extraction.KNOWLEDGE_DOCUMENT)
    except sources.SourceError as exc:
        return await _knowledge_page(request, 400, f"The file could not be read: {exc}.")
    passages = await asyncio.to_thread(sources.pieces, text, PASSAGE_CHARS)
    await store.add_knowledge(
        request.app[POOL], name, len(data), len(text), request[ADMIN].admin_id, passages
    )
    return pages.see_other("/admin/knowledge")


@routes.post("/admin/knowledge/{document_id}/delete")
async def delete_knowledge(request: web.Request) -> web.StreamResponse:
    document_id = _integer_id(request.match_info["document_id"])
    if await store.delete_knowledge(request.app[POOL], document_id) is None:
        raise ApiError(404, "Document not found")
    return pages.see_other("/admin/knowledge")


# ---------------------------------------------------------------- the riders' assistant


def _assistant_page(request, status=200, *, question="", error=None, answer="", problem=None):
    """The page in the rider's language, in the rider app's layout (the guard's rider)."""
    context = {
        "words": texts(request[RIDER].language),
        "ai_configured": _configured(request),
        "question": question,
        "error": error,
        "answer": answer,
        "problem": problem,
    }
    return layout.render(request, "ai/assistant.html", context, status=status)


def _wants_page(request: web.Request) -> bool:
    """A browser's plain form POST (no script) gets the page with the whole answer; the page's
    script and other clients get the stream."""
    accept = request.headers.get("Accept", "")
    return "text/html" in accept and "text/event-stream" not in accept


def _refusal(request, status, problem, question="", headers=None, *, error=None):
    if _wants_page(request):
        response = _assistant_page(request, status, question=question, error=error, problem=problem)
    else:
        response = web.Response(
            status=status, text=error or problem, content_type="text/plain", charset="utf-8"
        )
    response.headers.update(headers or {})
    return response


@routes.get("/training/assistant")
async def assistant_page(request: web.Request) -> web.Response:
    return _assistant_page(request)


def _event(text: str, event: str | None = None) -> bytes:
    lines = [f"event: {event}"] if event else []
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines += [f"data: {line}" for line in text.split("\n")]
    return ("\n".join(lines) + "\n\n").encode()


@routes.post("/training/assistant")
async def ask(request: web.Request) -> web.StreamResponse:
    language = request[RIDER].language
    words = texts(language)
    given = (await request.post()).get("question")
    question = given.strip() if isinstance(given, str) else ""
    if not _configured(request):
        return _refusal(request, 503, words["unconfigured"], question)
    if error := assistant.question_error(question, language):
        return _refusal(request, 400, None, question, error=error)
    pool, rider_id = request.app[POOL], request[RIDER].rider_id
    try:
        await assistant.count_question(pool, rider_id)
    except assistant.TooManyQuestions as exc:
        retry = {"Retry-After": str(exc.minutes * 60)}
        return _refusal(request, 429, exc.message(language), question, retry)
    found = await assistant.references(pool, rider_id, question, language)
    answer = request.app[PROVIDER].stream(assistant.messages(question, language, found))
    if _wants_page(request):
        return await _whole_answer(request, question, answer)
    response = web.StreamResponse(
        headers={"Content-Type": "text/event-stream; charset=utf-8", "X-Accel-Buffering": "no"}
    )
    await response.prepare(request)
    try:
        try:
            async for text in answer:
                await response.write(_event(text))
        except ProviderError as exc:
            log.error("Assistant stream failed", reason=exc.reason)
            await response.write(_event(words["failed"], "error"))
        await response.write(_event("", "done"))
        await response.write_eof()
    except ConnectionResetError:
        pass  # the rider left the page: nothing more to send
    finally:
        await answer.aclose()
    return response


async def _whole_answer(request, question, answer) -> web.Response:
    parts, problem = [], None
    try:
        async for text in answer:
            parts.append(text)
    except ProviderError as exc:
        log.error("Assistant stream failed", reason=exc.reason)
        problem = texts(request[RIDER].language)["failed"]
    return _assistant_page(request, question=question, answer="".join(parts), problem=problem)
