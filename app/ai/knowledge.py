"""Knowledge documents (DESIGN §10): a file's text cut into the passages the assistant
searches."""

from __future__ import annotations

import asyncio

import asyncpg

from app.ai import extraction, sources, store

PASSAGE_CHARS = 1_500


async def add(pool: asyncpg.Pool, kind: str, name: str, data: bytes, admin_id: int) -> int:
    """The new document's id; SourceError when its text cannot be taken out."""
    text = await extraction.text_of(kind, data, extraction.KNOWLEDGE_DOCUMENT)
    passages = await asyncio.to_thread(sources.pieces, text, PASSAGE_CHARS)
    return await store.add_knowledge(pool, name, len(data), len(text), admin_id, passages)


async def documents(pool: asyncpg.Pool) -> list[asyncpg.Record]:
    return await store.knowledge_documents(pool)


async def document(pool: asyncpg.Pool, document_id: int) -> asyncpg.Record | None:
    """The document's name and passage count, or None when there is none."""
    return await store.knowledge_document(pool, document_id)


async def delete(pool: asyncpg.Pool, document_id: int) -> str | None:
    """The deleted document's name, or None when there was none."""
    return await store.delete_knowledge(pool, document_id)
