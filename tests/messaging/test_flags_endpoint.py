"""`POST /api/v1/flags` with `notify`: the response's `notification` and the recorded message."""

import pytest

from app.messaging.links import signature_removed
from tests.conftest import TEST_KEYS
from tests.messaging.rows import add_path, add_rider

AUTH = {"x-api-key": TEST_KEYS["INTEGRATION_API_KEY"]}


@pytest.fixture
async def flag_path(db):
    await add_rider(db, "R-1", name="Sam", phone="+971501234567")
    return await add_path(db, "Late delivery basics", rule="flag", flag_types=["late_delivery"])


async def _flag(client, notify=True, flag_type="late_delivery"):
    body = {"riderId": "R-1", "type": flag_type, "notify": notify}
    response = await client.post("/api/v1/flags", json=body, headers=AUTH)
    assert response.status == 200
    return await response.json()


async def _messages(db):
    return await db.fetch("SELECT rider_id, kind, status, error, body FROM messages")


async def test_sent(make_client, db, flag_path, fake_provider):
    result = await _flag(await make_client(**fake_provider.env))
    assert (result["enrollmentsCreated"], result["notification"]) == (1, "sent")
    (message,) = await _messages(db)
    assert (message["kind"], message["status"]) == ("flag", "sent")
    assert "- Late delivery basics: due " in message["body"]
    sent = fake_provider.requests[0]["json"]["text"]["body"]
    assert signature_removed(sent) == message["body"] != sent


async def test_failed_when_the_provider_refuses(make_client, db, flag_path, fake_provider):
    fake_provider.answers = [(403, {"error": {"message": "Forbidden"}})]
    result = await _flag(await make_client(**fake_provider.env))
    assert result["notification"] == "failed"
    (message,) = await _messages(db)
    assert (message["status"], message["error"]) == ("failed", "provider answered 403: Forbidden")


async def test_an_unreachable_provider_never_fails_the_call(
    make_client, db, flag_path, fake_provider
):
    unreachable = {**fake_provider.env, "MESSAGING_API_URL": "http://127.0.0.1:9"}
    result = await _flag(await make_client(**unreachable))
    assert (result["enrollmentsCreated"], result["notification"]) == (1, "failed")
    (message,) = await _messages(db)
    assert message["error"].startswith("cannot reach the provider")


async def test_logged_when_not_connected(client, db, flag_path):
    result = await _flag(client)
    assert result["notification"] == "logged"
    assert [m["status"] for m in await _messages(db)] == ["logged"]


async def test_logged_when_the_rider_has_no_phone(make_client, db, flag_path, fake_provider):
    await db.execute("UPDATE riders SET phone = NULL")
    result = await _flag(await make_client(**fake_provider.env))
    assert result["notification"] == "logged"
    assert fake_provider.requests == []
    assert [m["status"] for m in await _messages(db)] == ["logged"]


async def test_no_notification_without_notify_or_without_an_assignment(
    make_client, db, flag_path, fake_provider
):
    client = await make_client(**fake_provider.env)
    assert (await _flag(client, notify=False))["notification"] is None
    # No path for this flag type: nothing assigned, nothing to tell.
    result = await _flag(client, flag_type="equipment")
    assert (result["enrollmentsCreated"], result["notification"]) == (0, None)
    assert fake_provider.requests == []
    assert await _messages(db) == []
