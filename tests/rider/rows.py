"""Riders, courses, paths and assignments for the rider-app tests, and a signed-in client.

Riders go through `POST /api/v1/riders` (their PIN hashed by the service as in production);
courses, paths and assignments are written straight into the test's database.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

from app.training.courses import save_course, save_translation
from tests.conftest import TEST_KEYS
from tests.web import PageClient

API_KEY = {"x-api-key": TEST_KEYS["INTEGRATION_API_KEY"]}

QUIZ = [
    {"question": "Where do you keep hot food?", "options": ["Hot bag", "Seat"], "correct": [0]},
    {"question": "Which are safe?", "options": ["Helmet", "Phone", "Lights"], "correct": [0, 2]},
    {"question": "When do you wash hands?", "options": ["Never", "Before pick-up"], "correct": [1]},
]
RIGHT = {"q0": ["0"], "q1": ["0", "2"], "q2": ["1"]}  # 100
ONE_RIGHT = {"q0": ["0"], "q1": ["0"], "q2": ["0"]}  # 33.33


def form(answers: dict[str, list[str]]) -> list[tuple[str, str]]:
    return [(name, value) for name, values in answers.items() for value in values]


async def save_riders(client, *riders: dict):
    response = await client.post("/api/v1/riders", json={"riders": list(riders)}, headers=API_KEY)
    assert response.status == 200, await response.text()
    return await response.json()


async def add_rider(client, rider_id="R-1", *, pin="1234", name="Sam Rider", **fields):
    await save_riders(
        client, {"riderId": rider_id, "name": name, "market": "AE", "pin": pin, **fields}
    )


async def add_course(
    db, title="Food safety", *, lessons=2, quiz=QUIZ, pass_mark=70, published=True
) -> uuid.UUID:
    document = {
        "title": title,
        "lessons": [
            {"title": f"Lesson {n}", "body": f"Body of **lesson {n}**."}
            for n in range(1, lessons + 1)
        ],
        "quiz": quiz,
        "pass_mark": pass_mark,
    }
    return await save_course(db, document, published=published)


async def add_translation(db, course_id, language="ar", *, lessons=2, quiz=QUIZ, state="machine"):
    translation = {
        "title": "سلامة الغذاء",
        "lessons": [
            {"title": f"الدرس {n}", "body": f"نص الدرس {n}"} for n in range(1, lessons + 1)
        ],
        "quiz": [
            {"question": f"سؤال {i}", "options": [f"خيار {j}" for j, _ in enumerate(q["options"])]}
            for i, q in enumerate(quiz)
        ],
    }
    await save_translation(db, course_id, language, translation, state)


async def add_path(db, name, course_ids) -> uuid.UUID:
    path_id = uuid.uuid4()
    await db.execute(
        "INSERT INTO paths (path_id, name, days_to_complete) VALUES ($1, $2, 7)", path_id, name
    )
    await db.execute(
        "INSERT INTO path_courses (path_id, course_id, position)"
        " SELECT $1, c, p FROM unnest($2::uuid[]) WITH ORDINALITY AS t(c, p)",
        path_id,
        list(course_ids),
    )
    return path_id


async def assign(db, rider_id, path_id, *, due_in_days: float = 7) -> None:
    await db.execute(
        "INSERT INTO assignments (rider_id, path_id, why, deadline) VALUES ($1, $2, 'api', $3)",
        rider_id,
        path_id,
        datetime.now(UTC) + timedelta(days=due_in_days),
    )


async def course_for(db, rider_id="R-1", **course) -> uuid.UUID:
    """A published course on a path assigned to the rider."""
    course_id = await add_course(db, **course)
    await assign(db, rider_id, await add_path(db, "Starter", [course_id]))
    return course_id


async def sign_in(client, rider_id="R-1", pin="1234", **extra):
    return await PageClient(client).submit(
        "/sign-in", {"rider_id": rider_id, "pin": pin, **extra}, form_page="/"
    )


async def signed_in(client, rider_id="R-1", pin="1234") -> PageClient:
    response = await sign_in(client, rider_id, pin)
    assert response.status == 303, await response.text()
    return PageClient(client)
