"""The knowledge documents the riders' assistant answers from (`/admin/knowledge`)."""

from __future__ import annotations

from aiohttp import web

from app.admin import layout, notices, roles
from app.admin.guard import ADMIN, actor
from app.ai import knowledge, sources
from app.core import uploads
from app.core.errors import ApiError
from app.core.http import MiB
from app.core.keys import POOL

KNOWLEDGE_TYPES = "a PDF, or a .txt or .md file"

routes = web.RouteTableDef()


def _document_id(request: web.Request) -> int:
    text = request.match_info["document_id"]
    if not (text.isascii() and text.isdigit()) or len(text) > 18:
        raise ApiError(404, "Not found")
    return int(text)


async def _knowledge_page(request: web.Request, status: int = 200, error: str | None = None):
    context = {
        "upload_error": error,
        "documents": await knowledge.documents(request.app[POOL]),
        "limit_mb": sources.FILE_LIMIT // MiB,
    }
    return layout.render(request, "admin/knowledge.html", context, status=status)


@routes.get("/admin/knowledge")
@roles.needs("viewer")
async def knowledge_page(request: web.Request) -> web.Response:
    return await _knowledge_page(request)


@routes.post("/admin/knowledge")
@roles.needs("editor")
async def upload_knowledge(request: web.Request) -> web.StreamResponse:
    try:
        name, data = await uploads.read_file(request, sources.FILE_LIMIT)
    except uploads.UploadRefused as exc:
        return await _knowledge_page(request, exc.status, exc.message)
    kind = sources.kind_of(name, sources.KNOWLEDGE_KINDS)
    if kind is None:
        return await _knowledge_page(request, 400, f"Upload {KNOWLEDGE_TYPES}.")
    try:
        await knowledge.add(
            request.app[POOL], actor(request), kind, name, data, request[ADMIN].admin_id
        )
    except sources.SourceError as exc:
        return await _knowledge_page(request, 400, f"The file could not be read: {exc}.")
    done = f"{name} was added to the assistant's knowledge."
    return await notices.see_other(request, "/admin/knowledge", done)


@routes.get("/admin/knowledge/{document_id}/delete")
@roles.needs("editor")
async def delete_page(request: web.Request) -> web.Response:
    document_id = _document_id(request)
    document = await knowledge.document(request.app[POOL], document_id)
    if document is None:
        raise ApiError(404, "Document not found")
    context = {
        "title": f"Delete the knowledge document {document['name']}?",
        "facts": (
            f"Its {document['passages']:,} passages leave the assistant's knowledge at once: "
            "riders' questions are no longer answered from it.",
            "The file is not kept: to use it again, upload it again.",
        ),
        "action": f"/admin/knowledge/{document_id}/delete",
        "button": "Delete",
        "back": "/admin/knowledge",
        "back_text": "Keep the document",
    }
    return layout.render(request, "admin/confirm.html", context)


@routes.post("/admin/knowledge/{document_id}/delete")
@roles.needs("editor")
async def delete_knowledge(request: web.Request) -> web.StreamResponse:
    if await knowledge.delete(request.app[POOL], actor(request), _document_id(request)) is None:
        raise ApiError(404, "Document not found")
    done = "The document was deleted: the assistant no longer answers from it."
    return await notices.see_other(request, "/admin/knowledge", done)
