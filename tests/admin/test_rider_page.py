"""The rider page and its actions: status, PIN reset, flag, path."""

import re
import time
from datetime import UTC, datetime

from app.messaging.links import one_tap_link
from app.training.pins import pepper_of, pin_matches
from tests.admin.riders_data import FLAG_PATH_ID, PATH_ID, add_history, add_riders
from tests.conftest import make_settings
from tests.waiting import until
from tests.web import confirm_page


async def _rider_session(db, rider_id: str) -> None:
    await db.execute(
        "INSERT INTO web_sessions (id_hash, kind, rider_id, csrf_secret, expires_at)"
        " VALUES (sha256($1::bytea), 'rider', $2, 'x', now() + interval '1 day')",
        rider_id.encode(),
        rider_id,
    )


async def _sessions(db, rider_id: str) -> int:
    return await db.fetchval("SELECT count(*) FROM web_sessions WHERE rider_id = $1", rider_id)


async def test_page_shows_profile_assignments_flags_passes_and_messages(admin_client, db):
    await add_riders(db)
    await add_history(db)
    page = await (await admin_client.get("/admin/riders/R-1")).text()
    assert "Sam Rivers" in page and "+971501234567" in page and "Dubai" in page
    assert "Late delivery · via api · Three late orders" in page
    assert "Road safety" in page and "<code>ABCD2345</code>" in page
    assert "reminder · failed · provider answered 400: bad number" in page
    page = await (await admin_client.get("/admin/riders/R-2")).text()
    assert re.search(r"<td>Road basics</td><td>api</td>.*overdue", page)


async def test_unknown_rider_is_a_404_page(admin_client, db):
    response = await admin_client.get("/admin/riders/nobody")
    assert response.status == 404
    assert response.content_type == "text/html"
    page = await response.text()
    assert '<nav aria-label="Admin">' in page  # the panel's menu
    assert '<a href="/admin/riders">Back to the riders list</a>' in page
    await add_riders(db)
    for action, data in [
        ("status", {"status": "active"}),
        ("pin", {}),
        ("flags", {"type": "equipment"}),
        ("assignments", {"path_id": PATH_ID}),
    ]:
        response = await admin_client.submit(
            f"/admin/riders/nobody/{action}", data, form_page="/admin/riders/R-1"
        )
        assert response.status == 404, action
    assert await db.fetchval("SELECT count(*) FROM flags") == 0


async def test_names_are_escaped(admin_client, db):
    await add_riders(db)
    page = await (await admin_client.get("/admin/riders/R-3")).text()
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


async def test_actions_without_csrf_token_are_403(admin_client, db):
    await add_riders(db)
    for action in ("status", "pin", "flags", "assignments"):
        response = await admin_client.post(
            f"/admin/riders/R-1/{action}",
            data={"status": "inactive", "type": "equipment", "path_id": PATH_ID},
            allow_redirects=False,
        )
        assert response.status == 403, action
    assert await db.fetchval("SELECT status FROM riders WHERE rider_id = 'R-1'") == "active"
    assert await db.fetchval("SELECT count(*) FROM flags") == 0


async def test_inactive_status_ends_the_riders_sessions_at_once(admin_client, db):
    await add_riders(db)
    await _rider_session(db, "R-1")
    response = await admin_client.submit(
        "/admin/riders/R-1/status", {"status": "suspended"}, form_page="/admin/riders/R-1"
    )
    assert response.status == 303
    assert response.headers["Location"].startswith("/admin/riders/R-1?notice=")
    page = await (await admin_client.get(response.headers["Location"])).text()
    assert "Status set to suspended; 0 paths assigned by the rules." in page
    assert await _sessions(db, "R-1") == 1
    # Asked first, on a page of its own whose form sends the status again, confirmed.
    response = await admin_client.submit(
        "/admin/riders/R-1/status", {"status": "inactive"}, form_page="/admin/riders/R-1"
    )
    assert response.status == 200
    page = await response.text()
    assert "Set Sam Rivers (R-1) inactive?" in page
    assert '<form method="post" action="/admin/riders/R-1/status">' in page
    assert '<input type="hidden" name="status" value="inactive">' in page
    assert 'href="/admin/riders/R-1">Keep the status</a>' in page
    assert await db.fetchval("SELECT status FROM riders WHERE rider_id = 'R-1'") == "suspended"
    assert await _sessions(db, "R-1") == 1
    response = await admin_client.submit(
        "/admin/riders/R-1/status",
        {"status": "inactive", "confirmed": "1"},
        form_page="/admin/riders/R-1",
    )
    assert response.status == 303
    assert await db.fetchval("SELECT status FROM riders WHERE rider_id = 'R-1'") == "inactive"
    assert await _sessions(db, "R-1") == 0
    nobody = {"status": "inactive", "confirmed": "1"}
    response = await admin_client.submit(
        "/admin/riders/nobody/status", nobody, form_page="/admin/riders/R-1"
    )
    assert response.status == 404
    response = await admin_client.submit(
        "/admin/riders/nobody/status", {"status": "inactive"}, form_page="/admin/riders/R-1"
    )
    assert response.status == 404


async def test_an_id_with_a_slash_has_its_page_and_actions(admin_client, db):
    rider_id = "AE/12 #3"
    await db.execute(
        "INSERT INTO riders (rider_id, name, market) VALUES ($1, 'Slash Rider', 'AE')", rider_id
    )
    listing = await (await admin_client.get("/admin/riders", params={"q": rider_id})).text()
    (link,) = re.findall(r'href="(/admin/riders/[^"?]+)"', listing)
    assert link == "/admin/riders/AE%2F12%20%233"
    page = await (await admin_client.get(link)).text()
    assert "Slash Rider" in page and f'action="{link}/status"' in page
    response = await admin_client.submit(f"{link}/status", {"status": "suspended"}, form_page=link)
    assert response.status == 303
    assert response.headers["Location"].startswith(f"{link}?notice=")
    assert await db.fetchval("SELECT status FROM riders WHERE rider_id = $1", rider_id) == (
        "suspended"
    )


async def test_onboarding_status_runs_the_onboarding_rule(admin_client, db):
    await add_riders(db)
    await db.execute(
        "UPDATE paths SET rule = 'onboarding', markets = '{AE}' WHERE path_id = $1", PATH_ID
    )
    response = await admin_client.submit(
        "/admin/riders/R-1/status", {"status": "onboarding"}, form_page="/admin/riders/R-1"
    )
    assert response.status == 303
    assert (
        await db.fetchval(
            "SELECT why FROM assignments WHERE rider_id = 'R-1' AND path_id = $1", PATH_ID
        )
        == "onboarding"
    )


async def test_a_bad_status_is_a_400_on_the_form(admin_client, db):
    await add_riders(db)
    response = await admin_client.submit(
        "/admin/riders/R-1/status", {"status": "retired"}, form_page="/admin/riders/R-1"
    )
    assert response.status == 400
    assert "Must be one of" in await response.text()
    assert await db.fetchval("SELECT status FROM riders WHERE rider_id = 'R-1'") == "active"


async def test_pin_reset_shows_a_new_pin_once_and_ends_sessions(admin_client, db):
    await add_riders(db)
    await _rider_session(db, "R-1")
    response = await admin_client.submit("/admin/riders/R-1/pin", {}, form_page="/admin/riders/R-1")
    assert response.status == 303
    shown = response.headers["Location"]
    page = await admin_client.text(shown)
    assert "New PIN for rider R-1" in page and 'href="/admin/riders/R-1"' in page
    pin = re.search(r'<input[^>]* value="([0-9]{6})"[^>]*data-secret>', page).group(1)
    # Once: the same address again (a refresh) says it was shown, and resets nothing.
    again = await admin_client.text(shown)
    assert pin not in again and "cannot be shown again" in again
    stored = await db.fetchval("SELECT pin_hash FROM riders WHERE rider_id = 'R-1'")
    assert pin_matches(pepper_of(make_settings()), stored, pin)
    assert pin not in stored
    assert await _sessions(db, "R-1") == 0
    assert pin not in await (await admin_client.get("/admin/riders/R-1")).text()


async def test_pin_reset_is_asked_on_a_page_of_its_own_first(admin_client, db):
    await add_riders(db)
    before = await db.fetchval("SELECT pin_hash FROM riders WHERE rider_id = 'R-1'")
    rider_page = await (await admin_client.get("/admin/riders/R-1")).text()
    assert 'action="/admin/riders/R-1/pin"' not in rider_page
    assert '<a class="button" href="/admin/riders/R-1/pin">Reset PIN…</a>' in rider_page
    page = await confirm_page(admin_client, "/admin/riders/R-1/pin", "/admin/riders/R-1/pin")
    assert "Reset the PIN of Sam Rivers (R-1)?" in page
    assert "sessions and one-tap links end at once" in page
    assert 'href="/admin/riders/R-1">Keep the PIN</a>' in page
    assert await db.fetchval("SELECT pin_hash FROM riders WHERE rider_id = 'R-1'") == before
    assert (await admin_client.get("/admin/riders/nobody/pin")).status == 404


async def test_admin_flag_has_the_apis_effects_via_admin(admin_client, db):
    await add_riders(db)
    response = await admin_client.submit(
        "/admin/riders/R-1/flags",
        {"type": "unsafe_driving", "note": "Ran a red", "notify": "on"},
        form_page="/admin/riders/R-1",
    )
    assert response.status == 303
    said = await admin_client.text(response.headers["Location"])
    assert (
        "Flag “Unsafe driving” added; 1 path assigned. Messaging did not send the message: "
        "it is on the call list under Messages." in said
    )
    flag = await db.fetchrow("SELECT type, note, source FROM flags WHERE rider_id = 'R-1'")
    assert dict(flag) == {"type": "unsafe_driving", "note": "Ran a red", "source": "admin"}
    assert (
        await db.fetchval(
            "SELECT why FROM assignments WHERE rider_id = 'R-1' AND path_id = $1", FLAG_PATH_ID
        )
        == "flag"
    )
    # Messaging is not connected in the tests: the notification is logged for the team.
    message = await db.fetchrow("SELECT kind, status, body FROM messages WHERE rider_id = 'R-1'")
    assert message["kind"] == "flag" and message["status"] == "logged"
    assert "Safe driving refresher" in message["body"]
    page = await (await admin_client.get("/admin/riders/R-1")).text()
    assert "Unsafe driving · via admin · Ran a red" in page


async def test_a_bad_flag_is_a_400_keeping_the_note(admin_client, db):
    await add_riders(db)
    response = await admin_client.submit(
        "/admin/riders/R-1/flags",
        {"type": "speeding", "note": "keep <this> note"},
        form_page="/admin/riders/R-1",
    )
    assert response.status == 400
    page = await response.text()
    assert "Must be one of" in page
    assert "keep &lt;this&gt; note</textarea>" in page
    assert await db.fetchval("SELECT count(*) FROM flags") == 0


async def test_assign_a_path_why_admin(admin_client, db):
    await add_riders(db)
    response = await admin_client.submit(
        "/admin/riders/R-1/assignments", {"path_id": PATH_ID}, form_page="/admin/riders/R-1"
    )
    assert response.status == 303
    page = await admin_client.text(response.headers["Location"])
    assert "Path assigned." in page
    assert re.search(r"<td>Road basics</td><td>admin</td>.*open", page)
    # Assigned again while open: nothing new, and the page says why.
    response = await admin_client.submit(
        "/admin/riders/R-1/assignments", {"path_id": PATH_ID}, form_page="/admin/riders/R-1"
    )
    assert response.status == 303
    assert "Nothing assigned: the rider is inactive or has this path open." in (
        await admin_client.text(response.headers["Location"])
    )
    assert await db.fetchval("SELECT count(*) FROM assignments") == 1


async def test_assign_an_unknown_or_malformed_path_is_a_400(admin_client, db):
    await add_riders(db)
    for path_id, message in [
        ("00000000-0000-0000-0000-00000000ffff", "This path does not exist any more."),
        ("not-a-uuid", "Choose a path."),
        ("", "This field is required."),
    ]:
        response = await admin_client.submit(
            "/admin/riders/R-1/assignments", {"path_id": path_id}, form_page="/admin/riders/R-1"
        )
        assert response.status == 400, path_id
        assert message in await response.text()
    assert await db.fetchval("SELECT count(*) FROM assignments") == 0


def _link_token(rider_id: str) -> str:
    link = one_tap_link(make_settings(), rider_id, datetime.now(UTC))
    return link.rpartition("/t/")[2]


async def _link_works(client, token: str) -> bool:
    response = await client.get(f"/t/{token}", allow_redirects=False)
    return response.status == 303


async def test_a_pin_reset_or_a_status_change_refuses_the_links_sent_before(
    admin_client, db, make_client
):
    await add_riders(db)
    rider = await make_client()
    for action, data in [("pin", {}), ("status", {"status": "suspended"})]:
        token = _link_token("R-1")
        await db.execute("UPDATE riders SET status = 'active' WHERE rider_id = 'R-1'")
        await admin_client.submit(
            f"/admin/riders/R-1/{action}", data, form_page="/admin/riders/R-1"
        )
        assert not await _link_works(rider, token), action
    # A link names the second it was issued: a new one is one of a later second.
    revoked = int(time.time())
    await until(lambda: int(time.time()) > revoked, "the next second")
    assert await _link_works(rider, _link_token("R-1"))  # new links work


async def test_the_rider_page_revokes_the_links_and_sessions(admin_client, db, make_client):
    await add_riders(db)
    await _rider_session(db, "R-1")
    token = _link_token("R-1")
    page = await (await admin_client.get("/admin/riders/R-1")).text()
    # Asked first, on a page of its own.
    assert 'action="/admin/riders/R-1/links/revoke"' not in page
    assert 'href="/admin/riders/R-1/links/revoke">Revoke one-tap links…</a>' in page
    page = await confirm_page(
        admin_client, "/admin/riders/R-1/links/revoke", "/admin/riders/R-1/links/revoke"
    )
    assert "Revoke the one-tap links of Sam Rivers (R-1)?" in page
    assert 'href="/admin/riders/R-1">Keep the links</a>' in page
    assert await _sessions(db, "R-1") == 1  # nothing ended by asking
    response = await admin_client.submit(
        "/admin/riders/R-1/links/revoke", {}, form_page="/admin/riders/R-1/links/revoke"
    )
    assert response.status == 303
    said = await admin_client.text(response.headers["Location"])
    assert "The one-tap links sent to R-1 until now no longer work" in said
    assert not await _link_works(await make_client(), token)
    assert await _sessions(db, "R-1") == 0
    response = await admin_client.submit(
        "/admin/riders/nobody/links/revoke", {}, form_page="/admin/riders/R-1"
    )
    assert response.status == 404
