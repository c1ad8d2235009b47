"""The AI pages' changes in the audit log: starting a generation or a translation writes its
event with the job, refused uploads write none."""

from app.core import database
from tests.ai.files import make_pdf
from tests.ai.test_generation import upload
from tests.ai.test_translation import course_id, translate  # noqa: F401 - the fixture

EVENTS = "SELECT actor, address, action, target, summary FROM audit_events ORDER BY event_id"


async def test_starting_a_generation_or_a_translation_is_recorded(
    ai_admin,
    course_id,  # noqa: F811 - the fixture
    database_url,
):
    pdf = make_pdf(["Wear your helmet on every ride."])
    assert (await upload(ai_admin, "slides.pptx", b"PK\x03\x04")).status == 400
    response = await upload(ai_admin, "handbook.pdf", pdf)
    assert response.status == 303
    generation = response.headers["Location"].rsplit("/", 1)[1]
    response = await translate(ai_admin, course_id, "ur")
    assert response.status == 303
    translation = response.headers["Location"].rsplit("/", 1)[1]
    async with database.connect(database_url) as conn:
        events = [dict(row) for row in await conn.fetch(EVENTS)]
    assert events == [
        {
            "actor": "ada@example.com",
            "address": "127.0.0.1",
            "action": "ai.generation_started",
            "target": generation,
            "summary": f"from handbook.pdf ({len(pdf):,} bytes)",
        },
        {
            "actor": "ada@example.com",
            "address": "127.0.0.1",
            "action": "ai.translation_started",
            "target": str(course_id),
            "summary": f"language ur, job {translation}",
        },
    ]
