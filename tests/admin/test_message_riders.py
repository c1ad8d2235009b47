"""Messaging the riders ticked on the riders list: the form counts who would get it, the
confirmation is bound to that count, the messages are recorded (kind `admin`) and shown on
the messages list, and an editor of other markets or a viewer messages no one."""

import asyncio
import html
import re
import uuid

from tests.admin.riders_data import add_riders
from tests.web import PageClient, csrf_of, sign_in

FORM = "/admin/messages/new"


async def _messages(db) -> list[tuple[str, str, str, str]]:
    rows = await db.fetch("SELECT rider_id, kind, body, status FROM messages ORDER BY rider_id")
    return [tuple(row) for row in rows]


async def _events(db) -> list[tuple[str, str]]:
    rows = await db.fetch("SELECT action, summary FROM audit_events WHERE action LIKE 'messages.%'")
    return [tuple(row) for row in rows]


async def test_the_riders_list_offers_the_message_for_the_riders_ticked(admin_client, db):
    await add_riders(db)
    page = await (await admin_client.get("/admin/riders")).text()
    assert 'formaction="/admin/messages/new">Message the riders ticked</button>' in page


async def test_the_form_counts_who_would_get_it(admin_client, db):
    await add_riders(db)
    # R-4 is inactive and has no phone; "nobody" is no rider.
    response = await admin_client.get(f"{FORM}?rider_ids=R-1&rider_ids=R-4&rider_ids=nobody")
    assert response.status == 200
    page = html.unescape(await response.text())
    assert "1 rider of the 3 riders ticked would get this message." in page
    assert "1 rider skipped: inactive, or without a phone." in page
    assert "1 rider not counted: not of your markets." in page
    assert 'maxlength="500"' in page
    assert await _messages(db) == []


async def test_asked_first_then_sent_recorded_and_listed(admin_client, db):
    await add_riders(db)
    chosen = {"rider_ids": "R-1\nR-3\nR-4", "body": "  Helmets on today, please.  "}
    response = await admin_client.submit(FORM, chosen)
    assert response.status == 200
    page = html.unescape(await response.text())
    assert "Send this message to 2 riders?" in page
    assert "“Helmets on today, please.”" in page
    assert 'name="expected_count" value="2"' in page
    assert await _messages(db) == []

    send_id = re.search(r'name="send_id" value="([0-9a-f-]{36})"', page).group(1)
    confirmed = {**chosen, "confirm": "1", "expected_count": "2", "send_id": send_id}
    response = await admin_client.submit(FORM, confirmed)
    assert response.status == 303, await response.text()
    body = "Helmets on today, please."
    # Messaging is not connected in tests: recorded as logged.
    assert await _messages(db) == [
        ("R-1", "admin", body, "logged"),
        ("R-3", "admin", body, "logged"),
    ]
    assert await _events(db) == [
        ("messages.sent_by_admin", "2 riders messaged: 0 sent, 0 failed, 2 logged")
    ]
    listed = await (await admin_client.get(response.headers["Location"])).text()
    assert "2 messages recorded: 0 sent, 0 failed, 2 logged." in listed
    assert listed.count('<td data-label="Kind">admin</td><td data-label="Status">logged') == 2
    assert body in listed
    export = await (await admin_client.get("/admin/exports/messages.csv?kind=admin")).text()
    assert export.count(",admin,logged,") == 2

    # The same confirmation again (a refresh of a resent form): nothing is sent twice.
    again = await admin_client.submit(FORM, confirmed)
    assert again.status == 303
    said = await (await admin_client.get(again.headers["Location"])).text()
    assert "This message was sent already: it was not sent again." in said
    assert len(await _messages(db)) == 2
    assert [event for event, _ in await _events(db)].count("messages.sent_by_admin") == 1


async def test_a_double_click_sends_once(admin_client, db):
    await add_riders(db)
    confirmed = {
        "rider_ids": "R-1 R-3",
        "body": "Hello",
        "confirm": "1",
        "expected_count": "2",
        "send_id": str(uuid.uuid4()),
    }
    responses = await asyncio.gather(*(admin_client.submit(FORM, confirmed) for _ in range(4)))
    assert [response.status for response in responses] == [303] * 4
    assert [row[0] for row in await _messages(db)] == ["R-1", "R-3"]
    assert len(await _events(db)) == 1


async def test_a_confirm_whose_count_changed_sends_nothing(admin_client, db):
    await add_riders(db)
    chosen = {"rider_ids": "R-1 R-3", "body": "Hello", "confirm": "1", "expected_count": "2"}
    chosen["send_id"] = str(uuid.uuid4())
    await db.execute("UPDATE riders SET status = 'inactive' WHERE rider_id = 'R-3'")
    response = await admin_client.submit(FORM, chosen)
    assert response.status == 409
    page = html.unescape(await response.text())
    assert "Nothing was sent: the riders changed; 1 rider would now get it." in page
    assert 'name="expected_count" value="1"' in page
    assert await _messages(db) == []
    assert await _events(db) == []


async def test_bad_forms_answer_400_and_send_nothing(admin_client, db):
    await add_riders(db)
    cases = [
        ({"rider_ids": "R-1", "body": "   "}, "Write the message."),
        ({"rider_ids": "R-1", "body": "x" * 501}, "Write at most 500 characters."),
        ({"body": "Hello"}, "Tick at least one rider on the riders list."),
        ({"rider_ids": "R-4", "body": "Hello"}, "None of the riders ticked can get a message."),
        (
            {"rider_ids": "nobody", "body": "Hello", "confirm": "1", "expected_count": "0"},
            "None of the riders ticked can get a message.",
        ),
        (
            {"rider_ids": " ".join(f"R-{i}" for i in range(501)), "body": "Hi"},
            "Message at most 500 riders at once.",
        ),
    ]
    for form, said in cases:
        response = await admin_client.submit(FORM, form)
        assert response.status == 400, form
        assert said in html.unescape(await response.text()), form
    assert await _messages(db) == []


async def _client_as(make_client, make_admin, role, markets=()) -> PageClient:
    account = await make_admin(email=f"{role}@example.com", role=role, markets=markets)
    client = PageClient(await make_client())
    assert (await sign_in(client, account)).status == 303
    return client


async def test_a_viewer_is_refused_and_nothing_is_sent(make_client, make_admin, db):
    await add_riders(db)
    viewer = await _client_as(make_client, make_admin, "viewer")
    assert (await viewer.get(f"{FORM}?rider_ids=R-1")).status == 403
    token = csrf_of(await (await viewer.get("/admin")).text())
    form = {"rider_ids": "R-1", "body": "Hi", "confirm": "1", "expected_count": "1"}
    response = await viewer.post(FORM, data={**form, "csrf_token": token}, allow_redirects=False)
    assert response.status == 403
    assert await _messages(db) == []
    assert (
        'formaction="/admin/messages/new"' not in await (await viewer.get("/admin/riders")).text()
    )


async def test_riders_of_other_markets_are_not_counted_nor_messaged(make_client, make_admin, db):
    await add_riders(db)
    editor = await _client_as(make_client, make_admin, "editor", markets=("KW",))
    form = {"rider_ids": "R-1 R-3", "body": "Hi"}
    page = html.unescape(await (await editor.submit(FORM, form)).text())
    assert "1 rider of the 2 riders ticked would get this message." in page
    assert "1 rider not counted: not of your markets." in page
    # A confirm naming the other market's count as well is refused: it reaches only R-3.
    form |= {"confirm": "1", "send_id": str(uuid.uuid4())}
    response = await editor.submit(FORM, {**form, "expected_count": "2"})
    assert response.status == 409
    response = await editor.submit(FORM, {**form, "expected_count": "1"})
    assert response.status == 303
    assert await _messages(db) == [("R-3", "admin", "Hi", "logged")]


async def test_the_same_confirm_on_two_instances_sends_once(admin_client, db, make_client):
    # The claim is a row, not process memory: a resent confirm on another instance finds it.
    await add_riders(db)
    second = PageClient(await make_client())
    second.client.session.cookie_jar.update_cookies(
        admin_client.client.session.cookie_jar.filter_cookies(
            admin_client.client.make_url("/admin")
        )
    )
    confirmed = {
        "rider_ids": "R-1 R-3",
        "body": "Hello",
        "confirm": "1",
        "expected_count": "2",
        "send_id": str(uuid.uuid4()),
    }
    responses = await asyncio.gather(
        admin_client.submit(FORM, confirmed), second.submit(FORM, confirmed)
    )
    assert [response.status for response in responses] == [303, 303]
    assert [row[0] for row in await _messages(db)] == ["R-1", "R-3"]
