"""Rider sign-in, sign-out, the guard, the throttle, and sessions that end when the API sets a
rider inactive or sends a new PIN."""

from http.cookies import SimpleCookie

import pytest

from app.messaging.links import revoke_links
from tests.rider.rows import add_rider, save_riders, sign_in, signed_in
from tests.web import PageClient

WRONG = "Wrong rider ID or PIN"


async def test_sign_in_page_has_the_form_and_needs_no_database(page_client, database_down):
    async with database_down():
        response = await page_client.get("/")
    assert response.status == 200
    page = await response.text()
    assert 'name="rider_id"' in page and 'name="pin"' in page and 'name="csrf_token"' in page
    assert '<html lang="en" dir="ltr">' in page
    assert response.headers["Cache-Control"] == "no-store"
    assert "csrf_presession" in response.cookies


async def test_right_pin_signs_in_and_opens_my_training(client):
    await add_rider(client, name="Sam <script>alert(1)</script> Rider")
    response = await sign_in(client)
    assert response.status == 303
    assert response.headers["Location"] == "/training"
    cookie = SimpleCookie(response.headers["Set-Cookie"])["rider_session"]
    assert cookie["path"] == "/"
    assert cookie["httponly"] and cookie["samesite"] == "Lax"
    assert not cookie["secure"]
    assert int(cookie["max-age"]) == 7 * 24 * 3600
    training = await client.get("/training")
    assert training.status == 200
    page = await training.text()
    assert "Sam &lt;script&gt;alert(1)&lt;/script&gt; Rider" in page
    assert "<script>" not in page


async def test_a_sign_in_gives_the_phone_a_device_cookie_of_the_rider_app(client):
    await add_rider(client)
    assert "rider_device" not in (await sign_in(client, pin="9999")).cookies
    cookie = (await sign_in(client)).cookies["rider_device"]
    assert cookie["path"] == "/"
    assert cookie["httponly"] is True
    assert cookie["samesite"] == "Strict"
    assert not cookie["secure"]
    assert int(cookie["max-age"]) == 365 * 24 * 3600


async def test_unknown_rider_wrong_pin_and_no_pin_get_the_same_401(client):
    await add_rider(client, "R-1", pin="1234")
    await save_riders(client, {"riderId": "R-2", "name": "No Pin", "market": "AE"})
    for rider_id, pin in [("R-1", "9999"), ("R-404", "1234"), ("R-2", "1234"), ("R-1", "١٢٣٤")]:
        response = await sign_in(client, rider_id, pin)
        assert response.status == 401, rider_id
        page = await response.text()
        assert WRONG in page
        assert f'value="{rider_id}"' in page  # the entered rider ID is kept, the PIN is not
        assert 'value="1234"' not in page
        assert "rider_session" not in response.cookies


async def test_inactive_rider_with_the_right_pin_is_told_the_account_is_not_active(client):
    await add_rider(client, status="inactive")
    response = await sign_in(client)
    assert response.status == 403
    assert "Your account is not active" in await response.text()
    assert (await sign_in(client, pin="9999")).status == 401


async def test_missing_fields_are_shown_with_their_errors(client):
    response = await sign_in(client, rider_id="R-1", pin=" ")
    assert response.status == 400
    page = await response.text()
    assert 'id="pin-error"' in page and "This field is required." in page
    assert 'value="R-1"' in page


async def test_five_failures_throttle_the_rider_id_even_for_the_right_pin(client):
    await add_rider(client, "R-1")
    await add_rider(client, "R-2")
    for _ in range(5):
        assert (await sign_in(client, "R-1", "0000")).status == 401
    response = await sign_in(client, "R-1", "1234")
    assert response.status == 429
    assert "Too many sign-in attempts. Try again in 15 minutes." in await response.text()
    assert (await sign_in(client, "R-2", "1234")).status == 303  # another rider ID is free


async def test_a_rider_id_matches_whatever_its_case_when_one_rider_has_it(client, db):
    await add_rider(client, "R-100001")
    response = await sign_in(client, "r-100001")
    assert response.status == 303
    # The session is the stored rider's, under the ID as it is stored.
    assert await db.fetchval("SELECT rider_id FROM web_sessions WHERE kind = 'rider'") == (
        "R-100001"
    )
    assert (await sign_in(client, "r-100001", "0000")).status == 401


async def test_riders_that_differ_only_by_case_sign_in_by_their_exact_ids_alone(client):
    await add_rider(client, "RA-7", pin="1111")
    await add_rider(client, "ra-7", pin="2222")
    for rider_id, pin in [("RA-7", "1111"), ("ra-7", "2222")]:
        assert (await sign_in(client, rider_id, pin)).status == 303, rider_id
    # Not by a folded form: the answer of a wrong PIN, whichever rider's PIN it is.
    for pin in ("1111", "2222", "0000"):
        response = await sign_in(client, "Ra-7", pin)
        assert response.status == 401, pin
        assert WRONG in await response.text()
        assert "rider_session" not in response.cookies


async def test_failures_under_a_folded_id_count_against_the_rider_it_found(client):
    await add_rider(client, "R-1")
    for _ in range(5):
        assert (await sign_in(client, "r-1", "0000")).status == 401
    assert (await sign_in(client, "R-1", "1234")).status == 429


async def test_sign_in_answers_503_while_the_database_is_down(client, database_down):
    await add_rider(client)
    token_page = PageClient(client)
    token = await token_page.csrf("/")
    async with database_down():
        response = await client.post(
            "/sign-in", data={"rider_id": "R-1", "pin": "1234", "csrf_token": token}
        )
    assert response.status == 503
    assert "Sign-in is not available right now" in await response.text()


async def test_sign_in_answers_503_without_a_session_secret(make_client, db):
    client = await make_client(SESSION_SECRET=None)
    response = await sign_in(client)
    assert response.status == 503
    assert "Sign-in is not available right now" in await response.text()


async def test_a_post_without_csrf_token_is_refused(client):
    await add_rider(client)
    response = await client.post("/sign-in", data={"rider_id": "R-1", "pin": "1234"})
    assert response.status == 403


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/training"),
        ("GET", "/training/proofs/ABCDEFGH"),
        ("POST", "/sign-out"),
        ("GET", "/training/courses/8e0cc8b5-0d6e-4b7d-9d4f-3f0a9a3f4c1e/quiz"),
    ],
)
async def test_signed_in_pages_send_a_browser_without_session_to_sign_in(client, method, path):
    response = await client.request(method, path, allow_redirects=False)
    assert response.status == 303
    assert response.headers["Location"] == "/"


async def test_sign_out_ends_the_session(client):
    await add_rider(client)
    rider = await signed_in(client)
    response = await rider.submit("/sign-out", {}, form_page="/training")
    assert response.status == 303 and response.headers["Location"] == "/"
    assert (await client.get("/training", allow_redirects=False)).status == 303


@pytest.mark.parametrize("language", ["ar", "ur", "ku"])
async def test_sign_out_lands_on_the_sign_in_page_in_the_language_the_rider_was_reading(
    client, language
):
    await add_rider(client, language="en")
    rider = await signed_in(client)
    await rider.get(f"/training?lang={language}")
    response = await rider.submit("/sign-out", {}, form_page="/training")
    assert response.status == 303 and response.headers["Location"] == f"/?lang={language}"
    page = await (await client.get(response.headers["Location"])).text()
    assert f'<html lang="{language}" dir="rtl">' in page
    assert f'name="lang" value="{language}"' in page  # and the next sign-in keeps it


async def _session_count(db, rider_id="R-1"):
    return await db.fetchval("SELECT count(*) FROM web_sessions WHERE rider_id = $1", rider_id)


async def test_a_new_pin_or_inactive_status_through_the_api_ends_sessions_at_once(client, db):
    await add_rider(client, "R-1")
    await add_rider(client, "R-2")
    await signed_in(client, "R-2")
    await signed_in(client, "R-1")
    # A change of name keeps the session.
    await save_riders(client, {"riderId": "R-1", "name": "Sam Renamed", "market": "AE"})
    assert (await client.get("/training", allow_redirects=False)).status == 200
    await save_riders(client, {"riderId": "R-1", "name": "Sam", "market": "AE", "pin": "5678"})
    assert (await client.get("/training", allow_redirects=False)).status == 303
    assert await _session_count(db, "R-1") == 0
    assert await _session_count(db, "R-2") == 1  # other riders keep theirs
    await signed_in(client, "R-1", "5678")
    await save_riders(
        client, {"riderId": "R-1", "name": "Sam", "market": "AE", "status": "inactive"}
    )
    assert (await client.get("/training", allow_redirects=False)).status == 303
    assert await _session_count(db, "R-1") == 0


async def test_a_rider_set_inactive_behind_the_services_back_is_signed_out(client, db):
    await add_rider(client)
    await signed_in(client)
    await db.execute("UPDATE riders SET status = 'inactive' WHERE rider_id = 'R-1'")
    assert (await client.get("/training", allow_redirects=False)).status == 303


async def test_revoking_a_riders_links_ends_their_sessions(client, db):
    await add_rider(client)
    await signed_in(client)
    assert await revoke_links(db, "R-1") is True
    assert (await client.get("/training", allow_redirects=False)).status == 303
