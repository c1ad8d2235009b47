"""The public verification page: no sign-in, only course, date, first name and last-name
initial; 404 for unknown codes; unknown codes throttled per client address."""

import pytest

from app.rider.progress import public_name
from tests.rider.rows import RIGHT, add_rider, course_for, form, signed_in


@pytest.fixture
async def proof_code(client, db):
    await add_rider(client, name="Samira Al Haddad")
    course_id = await course_for(db, title="Food safety")
    rider = await signed_in(client)
    await rider.submit(f"/training/courses/{course_id}/quiz", form(RIGHT))
    await rider.submit("/sign-out", {}, form_page="/training")
    return await db.fetchval("SELECT proof_code FROM course_results")


async def test_a_valid_code_shows_course_date_and_first_name_with_initial(client, proof_code, db):
    response = await client.get(f"/verify/{proof_code}")
    assert response.status == 200
    page = await response.text()
    completed = await db.fetchval("SELECT completed_at FROM course_results")
    assert "Valid: this course was completed." in page
    assert "Food safety" in page and f"{completed:%Y-%m-%d}" in page
    assert "Samira H." in page
    assert "Haddad" not in page and "R-1" not in page and "Al " not in page
    assert "Sign out" not in page


@pytest.mark.parametrize("code", ["ABCDEFGH", "abcdefgh", "short", "ABCDEFGHJ", "ÄBCDEFGH"])
async def test_an_unknown_code_is_a_404_page(client, code):
    response = await client.get(f"/verify/{code}")
    assert response.status == 404
    assert response.content_type == "text/html"
    assert "Not valid: no proof of completion has this code." in await response.text()


async def test_unknown_codes_are_throttled_per_address_and_valid_ones_are_not(client, proof_code):
    for _ in range(6):
        assert (await client.get(f"/verify/{proof_code}")).status == 200
    for _ in range(5):
        assert (await client.get("/verify/ABCDEFGH")).status == 404
    response = await client.get(f"/verify/{proof_code}")
    assert response.status == 429
    assert "Too many checks from your network. Try again in 15 minutes." in await response.text()


async def _fail_five_times(client, headers):
    for _ in range(5):
        assert (await client.get("/verify/ABCDEFGH", headers=headers)).status == 404


async def test_behind_a_trusted_proxy_the_address_it_saw_is_throttled(make_client):
    client = await make_client(TRUSTED_PROXY_HOPS="1")
    # The router appends the address it saw; what the client wrote before it is its own say.
    await _fail_five_times(client, {"X-Forwarded-For": "203.0.113.7"})
    forged = {"X-Forwarded-For": "198.51.100.1, 203.0.113.7"}
    assert (await client.get("/verify/ABCDEFGH", headers=forged)).status == 429
    other = {"X-Forwarded-For": "203.0.113.7, 198.51.100.9"}
    assert (await client.get("/verify/ABCDEFGH", headers=other)).status == 404


async def test_without_trusted_proxies_x_forwarded_for_is_ignored(client):
    await _fail_five_times(client, {"X-Forwarded-For": "203.0.113.7"})
    other = {"X-Forwarded-For": "198.51.100.9"}
    assert (await client.get("/verify/ABCDEFGH", headers=other)).status == 429


async def test_the_page_speaks_the_language_asked_for(client, proof_code):
    page = await (await client.get(f"/verify/{proof_code}?lang=ar")).text()
    assert '<html lang="ar" dir="rtl">' in page
    assert "صالحة: تم إتمام هذه الدورة." in page


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("Samira Al Haddad", "Samira H."),
        ("Sam", "Sam"),
        ("  Omar   Khan ", "Omar K."),
        ("علي حسن", "علي ح."),
    ],
)
def test_the_public_name_is_the_first_name_and_the_last_initial(name, shown):
    assert public_name(name) == shown
