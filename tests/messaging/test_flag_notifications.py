"""The flags endpoint's notification step, through its seam `notify_flag`."""

from datetime import UTC, datetime, timedelta

import pytest

from app.messaging.links import LINK_PURPOSE, signature_removed, verify
from app.messaging.notifications import notify_flag
from tests.conftest import TEST_KEYS, make_settings
from tests.messaging.rows import add_path, add_rider, assign


@pytest.fixture
async def flagged(db, pool):
    """Rider R-1 just got two paths from a flag: `await flagged(**env)` notifies them."""
    await add_rider(db, "R-1", name="Sam", phone="+971501234567")
    safety = await add_path(db, "Road safety")
    food = await add_path(db, "Food handling")
    await assign(db, "R-1", food, due_in_days=7)
    await assign(db, "R-1", safety, due_in_days=3)

    async def notify(phone_of_rider="+971501234567", **env):
        await db.execute("UPDATE riders SET phone = $1 WHERE rider_id = 'R-1'", phone_of_rider)
        return await notify_flag(pool, make_settings(**env), "R-1", [safety, food], notify=True)

    return notify


async def _messages(db):
    return await db.fetch("SELECT * FROM messages ORDER BY message_id")


async def test_sent_when_the_provider_accepts(flagged, db, fake_provider):
    assert await flagged(**fake_provider.env) == "sent"
    (message,) = await _messages(db)
    assert (message["rider_id"], message["kind"], message["status"]) == ("R-1", "flag", "sent")
    assert message["provider_message_id"] == "wamid.fake1"
    now = datetime.now(UTC)
    (request,) = fake_provider.requests
    sent = request["json"]["text"]["body"]
    link = sent.rpartition(" ")[2]
    assert sent == "\n".join(
        [
            "Hi Sam, new training was assigned to you:",
            f"- Road safety: due {now + timedelta(days=3):%Y-%m-%d}",
            f"- Food handling: due {now + timedelta(days=7):%Y-%m-%d}",
            f"Open your training: {link}",
        ]
    )
    token = link.rpartition("/t/")[2]
    assert verify(TEST_KEYS["SESSION_SECRET"], LINK_PURPOSE, token, now) == "R-1"
    assert request["json"]["to"] == "971501234567"
    # The table keeps the message without the link's signature: it signs no one in.
    assert message["link"] == signature_removed(link) != link
    assert message["body"] == signature_removed(sent)
    assert token.partition(".")[2] not in message["body"] + message["link"]


async def test_failed_when_the_provider_returns_an_error(flagged, db, fake_provider):
    fake_provider.answers = [(400, {"error": {"message": "Invalid parameter"}})]
    assert await flagged(**fake_provider.env) == "failed"
    (message,) = await _messages(db)
    assert message["status"] == "failed"
    assert message["error"] == "provider answered 400: Invalid parameter"


async def test_logged_when_not_connected(flagged, db, fake_provider):
    assert await flagged(**{**fake_provider.env, "MESSAGING_PHONE_NUMBER_ID": None}) == "logged"
    assert fake_provider.requests == []
    (message,) = await _messages(db)
    assert (message["status"], message["error"]) == ("logged", None)
    assert message["link"] in message["body"]


async def test_logged_when_the_rider_has_no_phone(flagged, db, fake_provider):
    assert await flagged(phone_of_rider=None, **fake_provider.env) == "logged"
    assert fake_provider.requests == []
    (message,) = await _messages(db)
    assert message["status"] == "logged"


async def test_nothing_without_notify_or_without_assigned_paths(db, pool):
    await add_rider(db, "R-1")
    path = await add_path(db, "Road safety")
    settings = make_settings()
    assert await notify_flag(pool, settings, "R-1", [path], notify=False) is None
    assert await notify_flag(pool, settings, "R-1", [], notify=True) is None
    assert await _messages(db) == []


async def test_a_path_completed_at_once_is_listed_as_completed(db, pool):
    await add_rider(db, "R-1", name="Sam")
    path = await add_path(db, "Road safety")
    await assign(db, "R-1", path, due_in_days=7, completed=True)
    assert await notify_flag(pool, make_settings(), "R-1", [path], notify=True) == "logged"
    (message,) = await _messages(db)
    assert "- Road safety: already completed\n" in message["body"]
