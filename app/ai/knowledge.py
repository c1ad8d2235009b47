"""Knowledge documents (docs/ai.md): a file's text cut into the passages the assistant
searches."""

from __future__ import annotations

import asyncio

import asyncpg

from app.ai import extraction, sources, store
from app.core import audit

PASSAGE_CHARS = 1_500


async def add(
    pool: asyncpg.Pool, actor: audit.Actor, kind: str, name: str, data: bytes, admin_id: int
) -> int:
    """The new document's id, stored with its audit event; SourceError when its text cannot
    be taken out (nothing stored)."""
    text = await extraction.text_of(kind, data, extraction.KNOWLEDGE_DOCUMENT)
    passages = await asyncio.to_thread(sources.pieces, text, PASSAGE_CHARS)
    async with pool.acquire() as conn, conn.transaction():
        document_id = await store.add_knowledge(
            conn, name, len(data), len(text), admin_id, passages
        )
        summary = f"{name}: {len(passages)} passages"
        await audit.record(conn, actor, "knowledge.added", str(document_id), summary)
    return document_id


async def documents(pool: asyncpg.Pool) -> list[asyncpg.Record]:
    return await store.knowledge_documents(pool)


async def document(pool: asyncpg.Pool, document_id: int) -> asyncpg.Record | None:
    """The document's name and passage count, or None when there is none."""
    return await store.knowledge_document(pool, document_id)


async def delete(pool: asyncpg.Pool, actor: audit.Actor, document_id: int) -> str | None:
    """The deleted document's name (deleted with its audit event), or None when there was
    none."""
    async with pool.acquire() as conn, conn.transaction():
        name = await store.delete_knowledge(conn, document_id)
        if name is not None:
            await audit.record(conn, actor, "knowledge.deleted", str(document_id), name)
    return name
