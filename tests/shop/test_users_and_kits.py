"""find-by-email, products, and a user's kit (read and write, both kit modes)."""

import asyncio

import pytest

from tests.shop.conftest import IMPORT, ORDERS, kit_entry, load, unit, user


async def test_find_by_email_is_case_insensitive_and_finds_inactive_users(client, shop):
    await load(shop, users=[user(4, agency_id="AG-4", active=0)])
    response = await client.get("/api/users/find-by-email?email=USER4@Example.com", headers=IMPORT)
    assert response.status == 200
    assert await response.json() == {
        "success": True,
        "user_id": 4,
        "ridehail_id": "1004",
        "agency_id": "AG-4",
    }


async def test_find_by_email_unknown_is_404(client, shop):
    response = await client.get("/api/users/find-by-email?email=nobody@example.com", headers=IMPORT)
    assert response.status == 404
    assert await response.json() == {"success": False, "message": "User not found."}


@pytest.mark.parametrize("query", ["", "?email="])
async def test_find_by_email_without_email_is_422(client, shop, query):
    response = await client.get(f"/api/users/find-by-email{query}", headers=IMPORT)
    assert response.status == 422
    assert await response.json() == {
        "success": False,
        "message": "The email field is required.",
        "errors": {"email": ["The email field is required."]},
    }


async def test_products_lists_available_not_deleted_ones(client, shop):
    await load(shop, products=[{"id": 4, "product_name": "Gone", "deleted": True}])
    response = await client.get("/api/products", headers=IMPORT)
    assert await response.json() == [
        {"id": 1, "product_name": "Bag"},
        {"id": 2, "product_name": "Jacket"},
    ]


async def test_products_of_a_partner(client, shop):
    other = await client.get("/api/products?partner_name=Other", headers=IMPORT)
    assert await other.json() == [{"id": 2, "product_name": "Jacket"}]
    unknown = await client.get("/api/products?partner_name=Nobody", headers=IMPORT)
    assert await unknown.json() == []


async def kit_of(client, user_id):
    response = await client.get(f"/api/users/{user_id}/kit", headers=IMPORT)
    assert response.status == 200
    body = await response.json()
    assert body["success"] is True
    return body["kit"]


@pytest.fixture
async def kits(shop):
    """User 1 has an own kit (Bag x2, Jacket x1) and Fleet's partner kit is Jacket x3."""
    await load(
        shop,
        partner_kits=[
            {"partner_name": "Fleet", "product_id": 2, "quantity": 3, "mandatory": False}
        ],
        users=[user(1)],
        user_kits=[kit_entry(1, 1, 2), kit_entry(1, 2, 1, mandatory=False)],
        user_products=[
            unit(1, 1, 2, "2026-01-01T00:00:00Z", "oms"),
            unit(2, 1, 2, "2026-03-01T00:00:00Z", "eshop"),
            unit(3, 1, 2, "2026-02-01T00:00:00Z", "app"),
            unit(4, 1, 1, None, None),
        ],
    )
    return shop


async def test_kit_per_user_with_channel_of_the_latest_assigned_unit(client, kits):
    assert await kit_of(client, 1) == [
        {
            "user_id": 1,
            "product_id": 1,
            "quantity": 2,
            "mandatory": True,
            "product": {"id": 1, "product_name": "Bag"},
            "channel": None,
        },
        {
            "user_id": 1,
            "product_id": 2,
            "quantity": 1,
            "mandatory": False,
            "product": {"id": 2, "product_name": "Jacket"},
            "channel": "eshop",
        },
    ]


async def test_kit_falls_back_to_the_partner_kit_when_the_feature_is_off(make_client, kits):
    client = await make_client(FEATURE_USER_PRODUCT_KIT="0")
    assert await kit_of(client, 1) == [
        {
            "user_id": 1,
            "product_id": 2,
            "quantity": 3,
            "mandatory": False,
            "product": {"id": 2, "product_name": "Jacket"},
            "channel": "eshop",
        }
    ]


@pytest.mark.parametrize("user_id", ["99", "abc", "99999999999999999999"])
async def test_kit_of_an_unknown_user_is_404(client, kits, user_id):
    for method in ("GET", "POST"):
        response = await client.request(
            method,
            f"/api/users/{user_id}/kit",
            headers=IMPORT,
            json={"product_id": 1, "quantity": 1, "mandatory": True},
        )
        assert response.status == 404
        assert await response.json() == {"success": False, "message": "User not found."}


async def test_kit_write_adds_then_updates_and_answers_the_whole_kit(client, kits):
    await load(kits, users=[user(2)])
    response = await client.post(
        "/api/users/2/kit", headers=IMPORT, json={"product_id": 2, "quantity": 2, "mandatory": True}
    )
    assert response.status == 200
    assert await response.json() == {
        "success": True,
        "kit": [
            {
                "user_id": 2,
                "product_id": 2,
                "quantity": 2,
                "mandatory": True,
                "product": {"id": 2, "product_name": "Jacket"},
                "channel": None,
            }
        ],
    }
    response = await client.post(
        "/api/users/1/kit",
        headers=IMPORT,
        json={"product_id": 1, "quantity": 5, "mandatory": False},
    )
    kit = (await response.json())["kit"]
    assert [(e["product_id"], e["quantity"], e["mandatory"]) for e in kit] == [
        (1, 5, False),
        (2, 1, False),
    ]
    assert await kit_of(client, 1) == kit


@pytest.mark.parametrize(
    ("body", "errors"),
    [
        (
            {},
            {
                "product_id": ["The product id field is required."],
                "quantity": ["The quantity field is required."],
                "mandatory": ["The mandatory field is required."],
            },
        ),
        (
            {"product_id": 1, "quantity": 0, "mandatory": True},
            {"quantity": ["The quantity field must be between 1 and 1000."]},
        ),
        (
            {"product_id": 1, "quantity": 1001, "mandatory": True},
            {"quantity": ["The quantity field must be between 1 and 1000."]},
        ),
        (
            {"product_id": 1, "quantity": 1.5, "mandatory": True},
            {"quantity": ["The quantity field must be an integer."]},
        ),
        (
            {"product_id": 1, "quantity": 1, "mandatory": "maybe"},
            {"mandatory": ["The mandatory field must be true or false."]},
        ),
        (
            {"product_id": 77, "quantity": 1, "mandatory": True},
            {"product_id": ["The selected product id is invalid."]},
        ),
        (
            {"product_id": "x", "quantity": 1, "mandatory": True},
            {"product_id": ["The product id field must be an integer."]},
        ),
        # The body is typed: a JSON integer and a JSON boolean, as the document says.
        (
            {"product_id": "1", "quantity": True, "mandatory": 1},
            {
                "product_id": ["The product id field must be an integer."],
                "quantity": ["The quantity field must be an integer."],
                "mandatory": ["The mandatory field must be true or false."],
            },
        ),
        (
            {"product_id": 2**63, "quantity": 1, "mandatory": "false"},
            {
                "product_id": ["The product id field must be an integer."],
                "mandatory": ["The mandatory field must be true or false."],
            },
        ),
    ],
)
async def test_kit_write_validation_is_422_and_writes_nothing(client, kits, body, errors):
    response = await client.post("/api/users/1/kit", headers=IMPORT, json=body)
    assert response.status == 422
    answer = await response.json()
    assert answer["success"] is False and answer["errors"] == errors
    first = next(iter(errors.values()))[0]
    more = sum(len(texts) for texts in errors.values()) - 1
    plural = "s" if more > 1 else ""
    assert answer["message"] == (first if not more else f"{first} (and {more} more error{plural})")
    assert await kits.fetchval("SELECT count(*) FROM shop_user_kits") == 2


async def test_kit_write_is_refused_while_per_user_kits_are_off(make_client, kits):
    client = await make_client(FEATURE_USER_PRODUCT_KIT="0")
    response = await client.post(
        "/api/users/1/kit", headers=IMPORT, json={"product_id": 1, "quantity": 9, "mandatory": True}
    )
    assert response.status == 409
    assert "FEATURE_USER_PRODUCT_KIT=0" in (await response.json())["message"]
    assert await kits.fetchval("SELECT quantity FROM shop_user_kits WHERE product_id = 1") == 2


async def test_concurrent_kit_writes_for_one_user_keep_its_counters_right(client, kits):
    await load(kits, users=[user(3)])
    bodies = [{"product_id": p, "quantity": 1, "mandatory": True} for p in (1, 2, 3)]
    responses = await asyncio.gather(
        *(client.post("/api/users/3/kit", headers=IMPORT, json=body) for body in bodies)
    )
    assert [r.status for r in responses] == [200, 200, 200]
    assert len(await kit_of(client, 3)) == 3
    counters = await kits.fetchrow(
        "SELECT user_kit_owned, user_kit_owed FROM shop_users WHERE id = 3"
    )
    assert tuple(counters) == (0, 3)


async def test_an_unknown_user_is_404_before_the_body_and_the_feature_are_checked(
    make_client, kits
):
    for env in ({}, {"FEATURE_USER_PRODUCT_KIT": "0"}):
        client = await make_client(**env)
        response = await client.post("/api/users/99/kit", headers=IMPORT, json={})
        assert response.status == 404
        assert await response.json() == {"success": False, "message": "User not found."}


@pytest.mark.parametrize(
    ("path", "headers"),
    [
        ("/api/import/users", IMPORT),
        ("/api/users/1/kit", IMPORT),
        ("/api/v1/exchanges/review", ORDERS),
    ],
)
async def test_a_body_that_is_not_json_is_400(client, kits, path, headers):
    response = await client.post(path, data=b"{", headers=headers)
    assert response.status == 400
    assert (await response.json())["success"] is False
    assert await kits.fetchval("SELECT count(*) FROM shop_user_kits WHERE user_id = 1") == 2
