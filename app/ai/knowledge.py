"""Knowledge documents (DESIGN §10): a file's text cut into the passages the assistant
searches."""

from __future__ import annotations

import asyncio

import asyncpg

from app.ai import sources, store

PASSAGE_CHARS = 1_500


def _passages(kind: str, data: bytes) -> tuple[str, list[str]]:
    text = sources.extract(kind, data)
    return text, sources.pieces(text, PASSAGE_CHARS)


async def add(pool: asyncpg.Pool, kind: str, name: str, data: bytes, admin_id: int) -> int:
    """The new document's id; SourceError when its text cannot be taken out."""
    text, passages = await asyncio.to_thread(_passages, kind, data)
    return await store.add_knowledge(pool, name, len(data), len(text), admin_id, passages)


async def documents(pool: asyncpg.Pool) -> list[asyncpg.Record]:
    return await store.knowledge_documents(pool)


async def delete(pool: asyncpg.Pool, document_id: int) -> str | None:
    """The deleted document's name, or None when there was none."""
    return await store.delete_knowledge(pool, document_id)
