"""Rider sessions in the core module (the rider app builds on them)."""

from aiohttp.test_utils import make_mocked_request

from app.core import database, sessions
from tests.conftest import POOL_MODE


def _request(session_id: str):
    return make_mocked_request("GET", "/", headers={"Cookie": f"rider_session={session_id}"})


async def test_rider_session_lasts_seven_days_from_sign_in_and_is_revocable(database_url, db):
    await db.execute("INSERT INTO riders (rider_id, name, market) VALUES ('R-1', 'Rana', 'AE')")
    pool = await database.create_pool(database_url, pool_mode=POOL_MODE, min_size=1, max_size=2)
    try:
        session_id = await sessions.create(pool, sessions.RIDER, rider_id="R-1", language="ar")
        version = await db.fetchval("SELECT xmin::text FROM web_sessions")
        first = await sessions.load(pool, sessions.RIDER, _request(session_id))
        assert (first.rider_id, first.language, first.admin_id) == ("R-1", "ar", None)
        again = await sessions.load(pool, sessions.RIDER, _request(session_id))
        assert again.expires_at == first.expires_at  # fixed, not sliding
        # Loading a fixed session writes nothing.
        assert await db.fetchval("SELECT xmin::text FROM web_sessions") == version
        # An admin cookie kind never loads a rider session.
        admin_request = make_mocked_request(
            "GET", "/admin", headers={"Cookie": f"admin_session={session_id}"}
        )
        assert await sessions.load(pool, sessions.ADMIN, admin_request) is None
        await sessions.revoke_rider(pool, "R-1")
        assert await sessions.load(pool, sessions.RIDER, _request(session_id)) is None
    finally:
        await pool.close()
