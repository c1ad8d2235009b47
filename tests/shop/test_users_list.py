"""GET /api/users: envelope, filters alone and combined, paging, kit modes, counters."""

from urllib.parse import parse_qsl, urlsplit

import pytest

from tests.shop.conftest import IMPORT, ORDERS, kit_entry, load, unit, user


async def page(client, query=""):
    response = await client.get(f"/api/users{query}", headers=IMPORT)
    assert response.status == 200
    return await response.json()


async def ids(client, query=""):
    return [u["id"] for u in (await page(client, query))["data"]]


@pytest.fixture
async def people(shop):
    """Users 1-6 listed; 7 inactive and 8 without ridehail_id or agency_id are never listed.

    Kits (product: required/owned): 1 {Bag 2/2, Jacket 1/0}; 2 {Bag 1/1}; 3 {Jacket 2/1};
    4 no kit; 5 {Bag 1/0}, partner Other; 6 agency only, {Jacket 1/3}.
    Partner kits: Fleet {Bag 1}, Other {Jacket 1}.
    """
    await load(
        shop,
        partner_kits=[
            {"partner_name": "Fleet", "product_id": 1, "quantity": 1, "mandatory": True},
            {"partner_name": "Other", "product_id": 2, "quantity": 1, "mandatory": False},
        ],
        users=[
            user(1, agency_id="AG-1"),
            user(2),
            user(3),
            user(4),
            user(5, partner="Other"),
            user(6, ridehail_id=None, agency_id="AG-6"),
            user(7, active=0),
            user(8, ridehail_id=None, agency_id=None),
        ],
        user_kits=[
            kit_entry(1, 1, 2),
            kit_entry(1, 2, 1),
            kit_entry(2, 1, 1),
            kit_entry(3, 2, 2),
            kit_entry(5, 1, 1),
            kit_entry(6, 2, 1),
            kit_entry(7, 1, 1),
            kit_entry(8, 1, 1),
        ],
        user_products=[
            unit(1, 1, 1, channel="oms"),
            unit(2, 1, 1, "2026-02-01T00:00:00Z", "eshop"),
            unit(3, 1, 2, None, None),
            unit(4, 2, 1),
            unit(5, 3, 2),
            unit(6, 3, 2, None, None),
            unit(7, 6, 2),
            unit(8, 6, 2),
            unit(9, 6, 2),
            unit(10, 7, 1),
            unit(11, 8, 1),
        ],
    )
    return shop


async def test_envelope_and_user_shape(client, people):
    body = await page(client, "?limit=2&partner_name=Fleet")
    base = f"http://127.0.0.1:{client.port}/api/users"
    assert body == {
        "current_page": 1,
        "data": [
            {
                "id": 1,
                "ridehail_id": "1001",
                "agency_id": "AG-1",
                "email": "user1@example.com",
                "partner_name": "Fleet",
                "kit": [
                    {
                        "user_id": 1,
                        "product_id": 1,
                        "quantity": 2,
                        "mandatory": True,
                        "product": {"id": 1, "product_name": "Bag"},
                    },
                    {
                        "user_id": 1,
                        "product_id": 2,
                        "quantity": 1,
                        "mandatory": True,
                        "product": {"id": 2, "product_name": "Jacket"},
                    },
                ],
                "existing_kit": [
                    {
                        "user_id": 1,
                        "product_id": 1,
                        "quantity": 2,
                        "mandatory": True,
                        "product": {"id": 1, "product_name": "Bag"},
                        "channel": "eshop",
                    }
                ],
                "available_kit": [
                    {
                        "user_id": 1,
                        "product_id": 2,
                        "quantity": 1,
                        "mandatory": True,
                        "product": {"id": 2, "product_name": "Jacket"},
                    }
                ],
            },
            {
                "id": 2,
                "ridehail_id": "1002",
                "agency_id": None,
                "email": "user2@example.com",
                "partner_name": "Fleet",
                "kit": [
                    {
                        "user_id": 2,
                        "product_id": 1,
                        "quantity": 1,
                        "mandatory": True,
                        "product": {"id": 1, "product_name": "Bag"},
                    }
                ],
                "existing_kit": [
                    {
                        "user_id": 2,
                        "product_id": 1,
                        "quantity": 1,
                        "mandatory": True,
                        "product": {"id": 1, "product_name": "Bag"},
                        "channel": "app",
                    }
                ],
                "available_kit": [],
            },
        ],
        "first_page_url": f"{base}?limit=2&partner_name=Fleet&page=1",
        "from": 1,
        "last_page": 3,
        "last_page_url": f"{base}?limit=2&partner_name=Fleet&page=3",
        "next_page_url": f"{base}?limit=2&partner_name=Fleet&page=2",
        "path": base,
        "per_page": 2,
        "prev_page_url": None,
        "to": 2,
        "total": 5,
    }


async def test_inactive_users_and_users_without_ids_are_left_out(client, people):
    assert await ids(client) == [1, 2, 3, 4, 5, 6]


FILTER_CASES = [
    ("partner_name=Other", [5]),
    ("partner_name=Nobody", []),
    ("agency_id=AG-6", [6]),
    ("ridehail_id=1003", [3]),
    ("email=USER4@example.com", [4]),
    ("id=2", [2]),
    ("id=7", []),
    ("existing_product_id=1", [1, 2]),
    ("existing_product_id=2", [6]),
    ("available_product_id=2", [1, 3]),
    ("available_product_id=1", [5]),
    ("existing_kit_empty=1", [3, 4, 5]),
    ("existing_kit_empty=true", [3, 4, 5]),
    ("existing_kit_empty=0", [1, 2, 6]),
    ("existing_kit_empty=false", [1, 2, 6]),
    ("available_kit_empty=1", [2, 4, 6]),
    ("available_kit_empty=0", [1, 3, 5]),
    ("existing_kit_empty=0&available_kit_empty=0", [1]),
    ("existing_kit_empty=1&available_kit_empty=1", [4]),
    ("partner_name=Fleet&available_kit_empty=0", [1, 3]),
    ("existing_product_id=1&available_product_id=2", [1]),
    ("partner_name=Fleet&existing_product_id=1&ridehail_id=1002", [2]),
    ("agency_id=AG-1&email=user2@example.com", []),
    ("partner_name=&id=&existing_kit_empty=", [1, 2, 3, 4, 5, 6]),  # empty means not sent
]


async def test_filters_alone_and_combined(client, people):
    for query, expected in FILTER_CASES:
        body = await page(client, f"?{query}")
        assert ([u["id"] for u in body["data"]], body["total"]) == (expected, len(expected)), query


async def test_filters_in_partner_kit_mode(make_client, people):
    client = await make_client(FEATURE_USER_PRODUCT_KIT="0")
    # Fleet users must have Bag x1 (owned by 1 and 2), Other users Jacket x1 (5 owns none).
    assert await ids(client, "?existing_product_id=1") == [1, 2]
    assert await ids(client, "?available_product_id=1") == [3, 4, 6]
    assert await ids(client, "?available_product_id=2") == [5]
    assert await ids(client, "?existing_kit_empty=1") == [3, 4, 5, 6]
    assert await ids(client, "?available_kit_empty=1") == [1, 2]
    body = await page(client, "?id=5")
    assert body["data"][0]["kit"] == [
        {
            "user_id": 5,
            "product_id": 2,
            "quantity": 1,
            "mandatory": False,
            "product": {"id": 2, "product_name": "Jacket"},
        }
    ]
    assert body["data"][0]["available_kit"] == body["data"][0]["kit"]


INVALID_CASES = [
    ("id=x", {"id": ["The id field must be an integer."]}),
    (
        "existing_product_id=1.5",
        {"existing_product_id": ["The existing product id field must be an integer."]},
    ),
    (
        "available_product_id=a",
        {"available_product_id": ["The available product id field must be an integer."]},
    ),
    (
        "existing_kit_empty=yes",
        {"existing_kit_empty": ["The existing kit empty field must be true or false."]},
    ),
    (
        "available_kit_empty=2",
        {"available_kit_empty": ["The available kit empty field must be true or false."]},
    ),
]


async def test_invalid_filter_values_are_422(client, people):
    for query, errors in INVALID_CASES:
        response = await client.get(f"/api/users?{query}", headers=IMPORT)
        assert response.status == 422, query
        assert (await response.json())["errors"] == errors, query


async def test_limit_is_clamped(client, people):
    for limit, per_page in [("0", 1), ("-3", 1), ("500", 200), ("", 200), ("3", 3)]:
        body = await page(client, f"?limit={limit}")
        assert (body["per_page"], len(body["data"])) == (per_page, min(per_page, 6)), limit


async def test_a_limit_that_is_not_an_integer_means_200(client, people):
    # The contract's "non-numeric means 200"; digits of another script are not ASCII digits.
    for limit in ("abc", "1.5", "%D9%A3", "1e3"):
        body = await page(client, f"?limit={limit}")
        assert (body["per_page"], len(body["data"])) == (200, 6), limit
    parameter = await documented_limit(client)
    assert "not an integer (`abc`, `1.5`) means 200" in parameter["description"]
    # Any text is valid (an empty one counts as not sent).
    assert {"anyOf": [{"type": "integer"}, {"type": "string"}]} in parameter["schema"]["anyOf"]


async def documented_limit(client) -> dict:
    document = await (await client.get("/api/openapi.json")).json()
    (parameter,) = [
        p for p in document["paths"]["/api/users"]["get"]["parameters"] if p["name"] == "limit"
    ]
    return parameter


@pytest.mark.parametrize(
    ("query", "errors"),
    [
        ("page=1.5", {"page": ["The page field must be an integer."]}),
        ("page=" + "9" * 30, {"page": ["The page field must be an integer."]}),
        ("page=null&page=null", {"page": ["The page field must be given at most once."]}),
        ("limit=2&limit=3", {"limit": ["The limit field must be given at most once."]}),
        ("email=a&email=b", {"email": ["The email field must be given at most once."]}),
    ],
)
async def test_non_integer_or_repeated_parameters_are_422_naming_them(
    client, people, query, errors
):
    response = await client.get(f"/api/users?{query}", headers=IMPORT)
    assert response.status == 422
    assert (await response.json())["errors"] == errors


async def test_an_empty_repeat_counts_as_not_sent(client, people):
    assert (await page(client, "?page=&page=2&limit=4"))["current_page"] == 2


async def test_following_next_page_url_to_the_end_keeps_the_filters(client, people):
    url, seen, pages = "/api/users?limit=2&available_kit_empty=0&page=1&x=y", [], []
    while url:
        response = await client.get(url, headers=IMPORT)
        body = await response.json()
        pages.append(
            (body["current_page"], body["from"], body["to"], body["prev_page_url"] is None)
        )
        seen += [u["id"] for u in body["data"]]
        assert body["total"] == 3 and body["last_page"] == 2
        query = dict(parse_qsl(urlsplit(body["first_page_url"]).query))
        assert query == {"limit": "2", "available_kit_empty": "0", "x": "y", "page": "1"}
        next_url = body["next_page_url"]
        url = next_url and next_url[next_url.index("/api/") :]
    assert seen == [1, 3, 5]
    assert pages == [(1, 1, 2, True), (2, 3, 3, False)]


async def test_page_past_the_end_and_empty_results(client, people):
    body = await page(client, "?limit=4&page=9")
    assert (body["data"], body["from"], body["to"], body["total"], body["last_page"]) == (
        [],
        None,
        None,
        6,
        2,
    )
    assert body["next_page_url"] is None and body["prev_page_url"].endswith("limit=4&page=8")
    empty = await page(client, "?partner_name=Nobody")
    assert (empty["total"], empty["last_page"], empty["from"], empty["to"]) == (0, 1, None, None)
    assert empty["next_page_url"] is None and empty["last_page_url"].endswith("page=1")
    assert (await page(client, "?page=-4"))["current_page"] == 1


async def test_counters_follow_the_kit_write_and_the_import(client, people):
    assert 4 in await ids(client, "?existing_kit_empty=1")
    # User 4 needs Bag x1 (owned none): now owes an entry.
    await client.post(
        "/api/users/4/kit", headers=IMPORT, json={"product_id": 1, "quantity": 1, "mandatory": True}
    )
    assert 4 in await ids(client, "?available_kit_empty=0")
    # Import moves user 2 to partner Other: in partner-kit mode their kit changes with it.
    response = await client.post(
        "/api/import/users",
        headers=IMPORT,
        json={
            "users": [
                {
                    "id": 2,
                    "email": "user2@example.com",
                    "first_name": "A",
                    "last_name": "B",
                    "partner_name": "Other",
                    "active": 1,
                }
            ]
        },
    )
    assert (await response.json())["results"]["updated"] == 1
    assert await people.fetchval(
        "SELECT (partner_kit_owned, partner_kit_owed) = (0, 1) FROM shop_users WHERE id = 2"
    )


async def test_a_page_number_past_every_row_is_an_empty_page(client, shop):
    response = await client.get("/api/users", params={"page": str(2**63 - 1)}, headers=IMPORT)
    assert response.status == 200
    body = await response.json()
    assert body["data"] == [] and body["from"] is None and body["to"] is None
    assert body["current_page"] == 2**62


@pytest.mark.parametrize(
    "path",
    [
        "/api/users?email=%00",
        "/api/products?partner_name=%00",
        "/api/users/find-by-email?email=a%00b",
        "/api/v1/exchanges/orders?city=%00",
    ],
)
async def test_a_nul_character_in_a_query_is_422_naming_the_parameter(client, shop, path):
    headers = ORDERS if "exchanges" in path else IMPORT
    response = await client.get(path, headers=headers)
    assert response.status == 422
    name = path.split("?")[1].split("=")[0]
    assert (await response.json())["errors"] == {
        name: [f"The {name.replace('_', ' ')} field must not contain the NUL character."]
    }
