"""POST /api/v1/exchanges/review: pending -> approved/denied, final decisions."""

import asyncio

import pytest

from tests.shop.conftest import ORDERS, load, order


@pytest.fixture
async def exchanges(shop):
    await load(
        shop,
        orders=[
            order(1),
            order(2, exchange={**order(2)["exchange"], "status": "denied"}),
            order(3, exchange=None),
        ],
    )
    return shop


async def review(client, order_id, status):
    response = await client.post(
        "/api/v1/exchanges/review", headers=ORDERS, json={"order_id": order_id, "status": status}
    )
    return response.status, await response.json()


async def stored(db, order_id):
    return await db.fetchval(
        "SELECT exchange_status FROM shop_orders WHERE order_id = $1", order_id
    )


@pytest.mark.parametrize(("decision", "label"), [("approved", "Approved"), ("denied", "Denied")])
async def test_pending_takes_the_decision_and_the_same_again_is_200(
    client, exchanges, decision, label
):
    for _ in range(2):
        assert await review(client, 1, decision) == (
            200,
            {"success": True, "order_id": 1, "exchange_status": label},
        )
    assert await stored(exchanges, 1) == decision
    listed = await (await client.get("/api/v1/exchanges/orders?order_id=1", headers=ORDERS)).json()
    assert listed[0]["exchange_status"] == label


async def test_the_opposite_decision_is_409_and_changes_nothing(client, exchanges):
    status, body = await review(client, 2, "approved")
    assert status == 409 and body["success"] is False and "denied" in body["message"]
    assert await stored(exchanges, 2) == "denied"


@pytest.mark.parametrize("order_id", [99, 3])
async def test_unknown_order_or_order_without_exchange_is_404(client, exchanges, order_id):
    assert await review(client, order_id, "approved") == (
        404,
        {"success": False, "message": "Exchange order not found."},
    )
    assert await stored(exchanges, 3) is None


@pytest.mark.parametrize(
    ("body", "errors"),
    [
        ({"order_id": 1, "status": "pending"}, {"status": ["The selected status is invalid."]}),
        ({"order_id": 1}, {"status": ["The status field is required."]}),
        (
            {"order_id": "one", "status": "approved"},
            {"order_id": ["The order id field must be an integer."]},
        ),
        (
            {},
            {
                "order_id": ["The order id field is required."],
                "status": ["The status field is required."],
            },
        ),
    ],
)
async def test_bad_body_is_422(client, exchanges, body, errors):
    response = await client.post("/api/v1/exchanges/review", headers=ORDERS, json=body)
    assert response.status == 422
    assert (await response.json())["errors"] == errors
    assert await stored(exchanges, 1) == "pending"


async def test_concurrent_opposite_reviews_do_not_both_win(client, exchanges):
    outcomes = await asyncio.gather(*(review(client, 1, d) for d in ["approved", "denied"] * 4))
    winners = {body["exchange_status"] for status, body in outcomes if status == 200}
    assert len(winners) == 1
    final = await stored(exchanges, 1)
    assert winners == {final.capitalize()}
    assert all(status == 409 for status, body in outcomes if status != 200)
