"""The riders' assistant (docs/ai.md): the hourly limit, retrieval (knowledge passages and the
rider's own lessons, by PostgreSQL full-text search) and the prompt. Neither the question nor
the answer is ever written to the application log."""

from __future__ import annotations

import math
from datetime import timedelta

import asyncpg

from app.ai import store
from app.ai.texts import texts
from app.training.languages import DESCRIBED

# Spec, Limits: 40 questions per rider per hour.
QUESTIONS_PER_HOUR = 40
QUESTION_MAX = 1_000
PASSAGES = 5
LESSONS = 3

SYSTEM_PROMPT = """\
You are the assistant of a training platform for delivery riders. Answer the rider's question
about their work briefly and practically, in {language}, in plain text. Use the reference
texts below when they are relevant; when they do not cover the question, say so and suggest
asking the training team. Never invent company rules.

Reference texts:
{references}"""


class TooManyQuestions(Exception):
    def __init__(self, wait: timedelta):
        super().__init__(f"next question possible in {wait}")
        self.minutes = max(1, math.ceil(wait.total_seconds() / 60))

    def message(self, language: str) -> str:
        return texts(language)["limit"].format(limit=QUESTIONS_PER_HOUR, minutes=self.minutes)


def question_error(question: str, language: str) -> str | None:
    """The form's error for the question as entered (trimmed), or None."""
    words = texts(language)
    if not question:
        return words["required"]
    if len(question) > QUESTION_MAX or "\x00" in question:
        return words["too_long"].format(max=QUESTION_MAX)
    return None


async def count_question(pool: asyncpg.Pool, rider_id: str) -> None:
    """Counts the question, or raises TooManyQuestions past the hourly limit."""
    wait = await store.record_question(pool, rider_id, QUESTIONS_PER_HOUR)
    if wait is not None:
        raise TooManyQuestions(wait)


async def references(pool: asyncpg.Pool, rider_id: str, question: str, language: str) -> list[str]:
    """The knowledge passages and the rider's lessons that best match the question."""
    async with pool.acquire() as conn:
        passages = await store.search_knowledge(conn, question, PASSAGES)
        lessons = await store.search_rider_lessons(conn, rider_id, question, language, LESSONS)
    return [f"[{row['name']}]\n{row['body']}" for row in passages] + [
        f"[Course: {row['course']} / {row['title']}]\n{row['body']}" for row in lessons
    ]


def messages(question: str, language: str, found: list[str]) -> list[dict]:
    system = SYSTEM_PROMPT.format(
        language=DESCRIBED.get(language, DESCRIBED["en"]),
        references="\n\n".join(found) or "(none found)",
    )
    return [{"role": "system", "content": system}, {"role": "user", "content": question}]
