"""GET /api/v2/questioner: the catalogue, optionally one country's."""

import pytest

from tests.checks.data import AUTH, load, question


@pytest.fixture
async def catalogue(db):
    await load(
        db,
        questions=[
            question(
                21,
                country_id=2,
                question="Helmet worn?",
                question_type="MULTIPLE_CHOICE:SINGLE",
                answers=[
                    {"name": "Yes", "name_ar": "نعم", "score": "2", "jump": "23", "skip": ["22"]},
                    {"name": "No", "name_ar": "لا", "score": "0"},
                ],
            ),
            question(3, country_id=1),
            question(12, country_id=1),
            question(22, country_id=2),
            question(100, country_id=10),
        ],
    )


async def get_questions(client, query=""):
    response = await client.get(f"/api/v2/questioner{query}", headers=AUTH)
    assert response.status == 200, await response.text()
    return await response.json()


async def test_every_question_ordered_by_id_with_its_fields(client, catalogue):
    questions = await get_questions(client)
    assert [q["question_id"] for q in questions] == [3, 12, 21, 22, 100]
    assert questions[2] == {
        "question_id": 21,
        "question": "Helmet worn?",
        "question_type": "MULTIPLE_CHOICE:SINGLE",
        "answers": [
            {"name": "Yes", "name_ar": "نعم", "score": "2", "jump": "23", "skip": ["22"]},
            {"name": "No", "name_ar": "لا", "score": "0", "jump": "", "skip": []},
        ],
    }
    assert list(questions[2]["answers"][0]) == ["name", "name_ar", "score", "jump", "skip"]


async def test_country_filter_is_exact(client, catalogue):
    for query, expected in [
        ("?country_id=1", [3, 12]),
        ("?country_id=2", [21, 22]),
        ("?country_id=10", [100]),
        ("?country_id=7", []),
        ("?Country_id=1", [3, 12, 21, 22, 100]),
        ("?country=1", [3, 12, 21, 22, 100]),
    ]:
        assert [q["question_id"] for q in await get_questions(client, query)] == expected, query


async def test_malformed_country_id_is_400(client):
    for value in ["AE", "1.5", "", "99999999999999999999"]:
        response = await client.get(
            "/api/v2/questioner", params={"country_id": value}, headers=AUTH
        )
        assert response.status == 400, value
        assert await response.json() == {
            "error": "country_id must be an integer (bigint)",
            "code": "invalid_request",
        }
