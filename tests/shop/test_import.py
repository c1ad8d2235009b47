"""POST /api/import/users: per-record validation, conflicts in order, savepoint isolation."""

import asyncio

import pytest

from tests.shop.conftest import IMPORT, load, user


def record(**fields):
    return {
        "email": "ana@example.com",
        "ridehail_id": 555,
        "first_name": "Ana",
        "last_name": "Silva",
        "partner_name": "Fleet",
        "active": 1,
        **fields,
    }


async def post(client, *records):
    response = await client.post("/api/import/users", json={"users": list(records)}, headers=IMPORT)
    assert response.status == 200
    body = await response.json()
    assert body["success"] is True
    return body["results"]


async def test_creates_a_user_and_answers_its_id_and_ridehail_id_as_a_string(client, shop):
    results = await post(client, record(email="Ana@Example.COM"))
    assert results["created"] == 1 and results["updated"] == 0 and results["failed"] == []
    [saved] = results["users"]
    assert saved["index"] == 0 and saved["action"] == "created" and isinstance(saved["id"], int)
    assert saved["ridehail_id"] == "555" and saved["email"] == "ana@example.com"
    row = await shop.fetchrow("SELECT * FROM shop_users WHERE id = $1", saved["id"])
    assert row["email"] == "ana@example.com" and row["ridehail_id"] == "555" and row["active"]


async def test_ridehail_id_may_be_a_string_of_digits(client, shop):
    results = await post(client, record(ridehail_id="00777"))
    assert results["users"][0]["ridehail_id"] == "777"


async def test_updates_by_id_deactivates_and_keeps_omitted_optional_fields(client, shop):
    await load(shop, users=[user(7, partner="Fleet", agency_id="AG-7")])
    update = record(
        id=7, email="USER7@example.com", first_name="New", partner_name="Other", active=0
    )
    del update["ridehail_id"]
    results = await post(client, update)
    assert results["updated"] == 1 and results["created"] == 0
    assert results["users"] == [
        {
            "index": 0,
            "id": 7,
            "ridehail_id": "1007",
            "email": "user7@example.com",
            "action": "updated",
        }
    ]
    row = await shop.fetchrow(
        "SELECT u.*, p.name AS partner FROM shop_users u"
        " JOIN shop_partners p ON p.id = u.partner_id"
        " WHERE u.id = 7"
    )
    assert (
        row["first_name"],
        row["partner"],
        row["active"],
        row["agency_id"],
        row["ridehail_id"],
    ) == ("New", "Other", False, "AG-7", "1007")
    # Reactivation, and an explicit null (or empty string, as in Laravel) clears an optional field.
    await post(client, record(id=7, email="user7@example.com", active=1, agency_id=""))
    row = await shop.fetchrow("SELECT active, agency_id, ridehail_id FROM shop_users WHERE id = 7")
    assert (row["active"], row["agency_id"], row["ridehail_id"]) == (True, None, "555")


FIELD_CASES = [
    ({"email": None}, "The email field is required."),
    ({"email": ""}, "The email field is required."),
    ({"email": "not-an-email"}, "The email field must be a valid email address."),
    ({"first_name": None}, "The first name field is required."),
    ({"last_name": " "}, "The last name field is required."),
    ({"partner_name": None}, "The partner name field is required."),
    ({"active": None}, "The active field is required."),
    ({"active": 2}, "The selected active is invalid."),
    ({"ridehail_id": "12a"}, "The ridehail id field must be an integer."),
    ({"id": "x"}, "The id field must be an integer."),
    ({"agency_id": 12}, "The agency id field must be a string."),
    ({"first_name": "x" * 256}, "The first name field must not be greater than 255 characters."),
]


async def test_field_validation_errors(client, shop):
    """None in a case means the field is left out."""
    records = [
        {k: v for k, v in record(**changes).items() if v is not None or k not in changes}
        for changes, _ in FIELD_CASES
    ]
    results = await post(client, *records)
    assert results["users"] == [] and results["created"] == 0
    assert [(f["index"], f["error"]) for f in results["failed"]] == [
        (index, error) for index, (_, error) in enumerate(FIELD_CASES)
    ]
    assert await shop.fetchval("SELECT count(*) FROM shop_users") == 0


async def test_a_record_that_is_not_an_object_fails_alone(client, shop):
    results = await post(client, "nonsense", record())
    assert results["failed"] == [
        {
            "index": 0,
            "id": None,
            "ridehail_id": None,
            "email": None,
            "error": "The record must be an object.",
        }
    ]
    assert results["created"] == 1


async def test_first_field_error_wins_in_field_order(client, shop):
    results = await post(client, {"first_name": "A"})
    assert results["failed"][0]["error"] == "The email field is required."


async def test_conflict_texts_in_the_documented_order(client, shop):
    await load(shop, users=[user(1, agency_id="AG-1"), user(2, agency_id="AG-2")])
    results = await post(
        client,
        # Unknown partner wins over an unknown id and every conflict.
        record(id=99, partner_name="Nobody", email="user1@example.com"),
        record(id=99, email="user1@example.com"),
        record(email="USER1@example.com", ridehail_id=1002, agency_id="AG-2"),
        record(id=1, email="user1@example.com", ridehail_id=1002, agency_id="AG-2"),
        record(id=1, email="user1@example.com", ridehail_id=1001, agency_id="AG-2"),
        record(email="fresh@example.com", ridehail_id=1001),
    )
    assert [(f["index"], f["error"]) for f in results["failed"]] == [
        (0, "Partner not found: Nobody."),
        (1, "User not found for id: 99."),
        (2, "Email already belongs to a different user."),
        (3, "ridehail_id already belongs to a different user."),
        (4, "agency_id already belongs to a different user."),
        (5, "ridehail_id already belongs to a different user."),
    ]
    assert results["failed"][1] == {
        "index": 1,
        "id": 99,
        "ridehail_id": "555",
        "email": "user1@example.com",
        "error": "User not found for id: 99.",
    }
    assert results["users"] == [] and results["created"] == results["updated"] == 0


async def test_each_record_is_isolated_and_later_ones_see_earlier_ones(client, shop):
    results = await post(
        client,
        record(email="one@example.com", ridehail_id=1),
        record(email="ONE@example.com", ridehail_id=2),  # conflicts with record 0
        record(email="two@example.com", ridehail_id=1),  # conflicts with record 0
        record(email="three@example.com", ridehail_id=3, partner_name="Nobody"),
        record(email="four@example.com", ridehail_id=4),
    )
    assert [u["index"] for u in results["users"]] == [0, 4]
    assert [f["index"] for f in results["failed"]] == [1, 2, 3]
    first = results["users"][0]["id"]
    # A record with id can then update the user the batch created.
    again = await post(client, record(id=first, email="one@example.com", ridehail_id=2))
    assert again["updated"] == 1
    emails = await shop.fetch("SELECT email FROM shop_users ORDER BY id")
    assert [r["email"] for r in emails] == ["one@example.com", "four@example.com"]


async def test_concurrent_imports_of_the_same_email_create_one_user(client, shop):
    first, second = await asyncio.gather(
        post(client, record(ridehail_id=1)), post(client, record(ridehail_id=2))
    )
    outcomes = sorted([first["created"], second["created"]])
    assert outcomes == [0, 1]
    failed = (first["failed"] or second["failed"])[0]
    assert failed["error"] == "Email already belongs to a different user."
    assert await shop.fetchval("SELECT count(*) FROM shop_users") == 1


@pytest.mark.parametrize(
    ("body", "text"),
    [
        ({}, "The users field is required."),
        ({"users": "x"}, "The users field must be an array."),
        ({"users": []}, "The users field must have between 1 and 5000 items."),
        ([1, 2], "The users field is required."),
    ],
)
async def test_batch_errors_are_422(client, shop, body, text):
    response = await client.post("/api/import/users", json=body, headers=IMPORT)
    assert response.status == 422
    assert await response.json() == {"success": False, "message": text, "errors": {"users": [text]}}


async def test_more_than_5000_records_is_422_and_writes_nothing(client, shop):
    users = [record(email=f"u{n}@example.com", ridehail_id=n) for n in range(5001)]
    response = await client.post("/api/import/users", json={"users": users}, headers=IMPORT)
    assert response.status == 422
    assert (await response.json())["errors"]["users"] == [
        "The users field must have between 1 and 5000 items."
    ]
    assert await shop.fetchval("SELECT count(*) FROM shop_users") == 0


async def test_5000_records_are_accepted(client, shop):
    users = [record(email=f"u{n}@example.com", ridehail_id=n) for n in range(5000)]
    results = await post(client, *users)
    assert results["created"] == 5000
    assert [u["index"] for u in results["users"]] == list(range(5000))


async def test_malformed_json_is_400(client, shop):
    response = await client.post("/api/import/users", data=b"{", headers=IMPORT)
    assert response.status == 400
    assert (await response.json())["success"] is False


async def test_a_nul_character_fails_its_record_alone(client, shop):
    results = await post(
        client, record(first_name="A\u0000na"), record(email="bo@example.com", ridehail_id=556)
    )
    assert [(f["index"], f["error"]) for f in results["failed"]] == [
        (0, "The first name field must not contain the NUL character.")
    ]
    assert results["created"] == 1


async def test_email_folding_is_the_same_when_stored_and_looked_up(client, shop):
    # Python and PostgreSQL lower-case U+0130 differently; one rule serves both ways.
    await post(client, record(email="\u0130lknur@example.com"))
    response = await client.get(
        "/api/users/find-by-email", params={"email": "\u0130lknur@example.com"}, headers=IMPORT
    )
    assert response.status == 200
    listed = await client.get(
        "/api/users", params={"email": "\u0130LKNUR@example.com"}, headers=IMPORT
    )
    assert [u["email"] for u in (await listed.json())["data"]] == ["i\u0307lknur@example.com"]
