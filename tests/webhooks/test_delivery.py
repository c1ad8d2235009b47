"""Delivery to a real receiver on localhost (WEBHOOKS_ALLOW_PRIVATE=1): signed per Standard
Webhooks, retried on the schedule, a 410 disabling the endpoint, no redirect followed, at most
10 in flight per endpoint, each event once with two delivery loops on one database; the
answer's status kept, never its body; without the setting, nothing sent to a private
address."""

from datetime import timedelta

import orjson
import pytest
import standardwebhooks

from app.web import create_app
from app.webhooks import delivery, store
from tests.conftest import make_settings
from tests.core.test_metrics import samples, value
from tests.training.conftest import AUTH
from tests.training.helpers import add_course, add_path
from tests.webhooks.receiver import Receiver, until
from tests.webhooks.rows import SECRET, add_endpoint

SCRAPE_TOKEN = "metrics-token-0123456789"


@pytest.fixture
async def receiver(aiohttp_server):
    receiver = Receiver()
    receiver.server = await aiohttp_server(receiver.app())
    return receiver


def hook_url(port: int) -> str:
    return f"http://127.0.0.1:{port}/hook"


@pytest.fixture
def deliverer(aiohttp_client, database_url):
    """Start an app (a `serve` process) with its delivery loop, allowed to deliver to the
    receiver on this machine unless told otherwise."""

    async def start(**env):
        env = {"WEBHOOKS_ALLOW_PRIVATE": "1", **env}
        app = create_app(make_settings(**env), database_url)
        delivery.setup(app)
        return await aiohttp_client(app)

    return start


async def deliveries(db):
    return await db.fetch("SELECT * FROM webhook_deliveries ORDER BY delivery_id")


async def assign_riders(client, db, count: int) -> None:
    """`count` assignment.created events through the API."""
    ids = [f"R-{n}" for n in range(count)]
    await db.executemany(
        "INSERT INTO riders (rider_id, name, market) VALUES ($1, 'N', 'AE')", [(i,) for i in ids]
    )
    path = await add_path(db, "manual", [await add_course(db)])
    response = await client.post(
        "/api/v1/assignments", json={"pathId": str(path), "riderIds": ids}, headers=AUTH
    )
    assert response.status == 200


async def settled(db, status: str = "succeeded") -> bool:
    rows = await deliveries(db)
    return bool(rows) and all(row["status"] == status for row in rows)


async def test_each_event_arrives_signed_per_standard_webhooks(deliverer, receiver, db):
    client = await deliverer()
    await add_endpoint(db, hook_url(receiver.server.port))
    await assign_riders(client, db, 2)
    await until(lambda: settled(db))
    verifier = standardwebhooks.Webhook(SECRET)
    received = [verifier.verify(body, headers) for headers, body in receiver.requests]
    assert sorted(event["data"]["riderId"] for event in received) == ["R-0", "R-1"]
    for event in received:
        assert event["type"] == "assignment.created" and event["data"]["source"] == "api"
        assert event["timestamp"].endswith("Z")
    rows = await deliveries(db)
    assert sorted(receiver.ids) == [f"msg_{row['delivery_id']}" for row in rows]
    assert [(r["attempts"], r["last_status"]) for r in rows] == [(1, 204), (1, 204)]
    # A tampered body does not verify.
    headers, body = receiver.requests[0]
    with pytest.raises(standardwebhooks.WebhookVerificationError):
        verifier.verify(body.replace(b"R-", b"X-"), headers)


def feed_time(moment) -> str:
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


async def test_assignment_events_arrive_with_the_assignments_facts(deliverer, receiver, db):
    """Stored as facts, sent as docs/webhooks.md's data objects: created, and completed at once."""
    client = await deliverer()
    await add_endpoint(db, hook_url(receiver.server.port))
    await db.execute("INSERT INTO riders (rider_id, name, market) VALUES ('R-1', 'N', 'AE')")
    path = await add_path(db, "manual")
    response = await client.post(
        "/api/v1/assignments", json={"pathId": str(path), "riderIds": ["R-1"]}, headers=AUTH
    )
    assert response.status == 200
    await until(lambda: settled(db))
    assignment = await db.fetchrow("SELECT deadline, completed_at FROM assignments")
    verifier = standardwebhooks.Webhook(SECRET)
    received = [verifier.verify(body, headers) for headers, body in receiver.requests]
    common = {"riderId": "R-1", "pathId": str(path)}
    assert sorted((event["type"], event["data"]) for event in received) == [
        ("assignment.completed", {**common, "completedAt": feed_time(assignment["completed_at"])}),
        (
            "assignment.created",
            {**common, "dueDate": feed_time(assignment["deadline"]), "source": "api"},
        ),
    ]


async def test_attempts_are_counted_by_outcome_in_the_metrics(deliverer, receiver, db):
    client = await deliverer(METRICS_TOKEN=SCRAPE_TOKEN)

    async def counted() -> dict:
        response = await client.get("/metrics", headers={"Authorization": f"Bearer {SCRAPE_TOKEN}"})
        return samples(await response.text())

    before = await counted()
    receiver.answers = [500, 204]
    await add_endpoint(db, hook_url(receiver.server.port))
    await assign_riders(client, db, 1)
    await until(lambda: db.fetchval("SELECT attempts = 1 FROM webhook_deliveries"))
    after = await counted()
    moved = {
        outcome: value(after, "webhook_deliveries_total", outcome=outcome)
        - value(before, "webhook_deliveries_total", outcome=outcome)
        for outcome in ("refused", "succeeded")
    }
    assert moved == {"refused": 1, "succeeded": 0}


async def test_a_failed_attempt_is_retried_after_5_s_with_the_same_id(deliverer, receiver, db):
    client = await deliverer()
    receiver.answers = [500]
    await add_endpoint(db, hook_url(receiver.server.port))
    await assign_riders(client, db, 1)
    await until(lambda: db.fetchval("SELECT attempts = 1 FROM webhook_deliveries"))
    (row,) = await deliveries(db)
    assert (row["status"], row["last_status"], row["last_answer"]) == ("pending", 500, None)
    wait = row["next_attempt_at"] - row["last_attempt_at"]
    assert timedelta(seconds=4.9) <= wait <= timedelta(seconds=5.1)
    await until(lambda: settled(db))  # about five seconds later
    assert receiver.ids == [receiver.ids[0]] * 2
    assert (await deliveries(db))[0]["attempts"] == 2


@pytest.mark.parametrize(
    ("attempts", "status", "delay"),
    [(1, "pending", 300), (6, "pending", 36000), (7, "failed", None)],
)
async def test_the_schedule_then_failed(deliverer, receiver, db, attempts, status, delay):
    await deliverer()
    receiver.answers = [503]
    endpoint = await add_endpoint(db, hook_url(receiver.server.port))
    await db.execute(
        "INSERT INTO webhook_deliveries (endpoint_id, event_type, data, attempts)"
        " VALUES ($1, 'flag.created', '{}', $2)",
        endpoint,
        attempts,
    )
    await until(lambda: db.fetchval("SELECT last_status IS NOT NULL FROM webhook_deliveries"))
    (row,) = await deliveries(db)
    assert (row["status"], row["attempts"]) == (status, attempts + 1)
    if delay is not None:
        wait = (row["next_attempt_at"] - row["last_attempt_at"]).total_seconds()
        assert abs(wait - delay) < 1


async def test_410_disables_the_endpoint(deliverer, receiver, db):
    client = await deliverer()
    receiver.answers = [410]
    endpoint = await add_endpoint(db, hook_url(receiver.server.port))
    await assign_riders(client, db, 1)
    await until(lambda: settled(db, "failed"))
    assert await db.fetchrow(
        "SELECT enabled, disabled_why FROM webhook_endpoints WHERE endpoint_id = $1", endpoint
    ) == (False, "The receiver answered 410 Gone.")
    assert len(receiver.requests) == 1


async def test_a_redirect_is_not_followed(deliverer, receiver, db):
    client = await deliverer()
    receiver.answers = [302]
    await add_endpoint(db, hook_url(receiver.server.port))
    await assign_riders(client, db, 1)
    await until(lambda: db.fetchval("SELECT attempts = 1 FROM webhook_deliveries"))
    (row,) = await deliveries(db)
    assert (row["status"], row["last_status"], receiver.redirected) == ("pending", 302, 0)


async def test_no_answer_in_time_is_retried(deliverer, receiver, db, monkeypatch):
    monkeypatch.setattr(delivery, "TIMEOUT_SECONDS", 0.3)
    client = await deliverer()
    receiver.delay = 1.0
    await add_endpoint(db, hook_url(receiver.server.port))
    await assign_riders(client, db, 1)
    await until(lambda: db.fetchval("SELECT attempts = 1 FROM webhook_deliveries"))
    (row,) = await deliveries(db)
    assert (row["status"], row["last_status"]) == ("pending", None)
    assert row["last_answer"] == "timed out"


async def test_a_receiver_down_then_up_gets_every_event(deliverer, aiohttp_server, db):
    client = await deliverer()
    receiver = Receiver()
    server = await aiohttp_server(receiver.app())
    port = server.port
    await server.close()  # down: nothing listens on its port
    await add_endpoint(db, hook_url(port))
    await assign_riders(client, db, 5)
    await until(lambda: db.fetchval("SELECT bool_and(attempts = 1) FROM webhook_deliveries"))
    rows = await deliveries(db)
    assert {(r["status"], r["last_status"]) for r in rows} == {("pending", None)}
    assert {r["last_answer"] for r in rows} == {"connection failed"}
    await aiohttp_server(receiver.app(), port=port)  # up again
    # ... and the next attempts fall due (the schedule's later tries, brought forward).
    await db.execute("UPDATE webhook_deliveries SET next_attempt_at = now()")
    await until(lambda: settled(db))
    assert len(set(receiver.ids)) == len(receiver.ids) == 5


async def test_two_delivery_loops_deliver_each_event_once(deliverer, receiver, db):
    first, _second = await deliverer(), await deliverer()
    receiver.delay = 0.02
    await add_endpoint(db, hook_url(receiver.server.port))
    await assign_riders(first, db, 60)
    await until(lambda: settled(db), seconds=20)
    assert len(receiver.ids) == len(set(receiver.ids)) == 60
    assert receiver.most_in_flight <= delivery.MAX_IN_FLIGHT


async def test_at_most_10_in_flight_per_endpoint_across_loops(deliverer, receiver, db):
    await deliverer()
    await deliverer()
    receiver.delay = 0.3
    endpoint = await add_endpoint(db, hook_url(receiver.server.port))
    await db.execute(
        "INSERT INTO webhook_deliveries (endpoint_id, event_type, data)"
        " SELECT $1, 'flag.created', jsonb_build_object('n', n) FROM generate_series(1, 40) n",
        endpoint,
    )
    await until(lambda: settled(db), seconds=20)
    assert receiver.most_in_flight == delivery.MAX_IN_FLIGHT
    assert len(receiver.requests) == 40


async def test_claims_of_a_dead_process_come_back_after_their_lease(deliverer, receiver, db):
    endpoint = await add_endpoint(db, hook_url(receiver.server.port))
    insert = (
        "INSERT INTO webhook_deliveries (endpoint_id, event_type, data, leased_until)"
        " SELECT $1, 'flag.created', '{}', now() + $2::interval FROM generate_series(1, $3)"
    )
    # Ten live claims of another process fill the endpoint's slots ...
    await db.execute(insert, endpoint, timedelta(minutes=1), 10)
    # ... and one claim whose lease ran out is due again.
    await db.execute(insert, endpoint, timedelta(seconds=-1), 1)
    # Another endpoint's due event: once it arrives, a turn has claimed what was due.
    other = await add_endpoint(db, hook_url(receiver.server.port) + "?other")
    await db.execute(
        "INSERT INTO webhook_deliveries (endpoint_id, event_type, data)"
        " VALUES ($1, 'flag.created', '{}')",
        other,
    )
    await deliverer()
    await until(lambda: _received(receiver))
    assert len(receiver.requests) == 1  # the other endpoint's: none of the claimed endpoint's
    await db.execute("UPDATE webhook_deliveries SET leased_until = now() WHERE attempts = 0")
    await until(lambda: settled(db))
    assert len(receiver.requests) == 1 + 11
    assert orjson.loads(receiver.requests[1][1])["type"] == "flag.created"


async def _received(receiver) -> bool:
    return bool(receiver.requests)


async def test_a_name_is_reached_at_the_address_its_lookup_gave(deliverer, receiver, db):
    """`localhost` goes through the checking resolver (an IP address would not)."""
    client = await deliverer()
    await add_endpoint(db, f"http://localhost:{receiver.server.port}/hook")
    await assign_riders(client, db, 1)
    await until(lambda: settled(db))
    assert len(receiver.requests) == 1


LOOPBACK_ONLY = "a loopback address (this machine): webhooks go only to public addresses."


async def test_without_the_setting_nothing_goes_to_a_private_address(deliverer, receiver, db):
    """Endpoints saved before the rules, or written to the database directly: each attempt is
    refused before connecting, recorded with the rule, and tried again on the schedule."""
    await deliverer(WEBHOOKS_ALLOW_PRIVATE="0")
    port = receiver.server.port
    reasons = {
        f"https://127.0.0.1:{port}/hook": f"127.0.0.1 is {LOOPBACK_ONLY}",
        f"https://localhost:{port}/hook": f"localhost resolves to {LOOPBACK_ONLY}",
        f"https://[::ffff:127.0.0.1]:{port}/hook": f"(which leads to 127.0.0.1) is {LOOPBACK_ONLY}",
        f"http://127.0.0.1:{port}/hook": "Enter an https:// URL.",
    }
    for url in reasons:
        endpoint = await add_endpoint(db, url)
        await db.execute(
            "INSERT INTO webhook_deliveries (endpoint_id, event_type, data)"
            " VALUES ($1, 'flag.created', '{}')",
            endpoint,
        )
    await until(lambda: db.fetchval("SELECT bool_and(attempts = 1) FROM webhook_deliveries"))
    rows = await db.fetch(
        "SELECT e.url, d.status, d.last_status, d.last_answer, d.next_attempt_at > now() AS later"
        " FROM webhook_deliveries d JOIN webhook_endpoints e USING (endpoint_id)"
    )
    assert len(rows) == len(reasons)
    for row in rows:
        assert (row["status"], row["last_status"], row["later"]) == ("pending", None, True)
        assert row["last_answer"].endswith(reasons[row["url"]])
    assert receiver.requests == []


async def test_a_claim_planned_on_a_small_table_still_finds_its_rows_directly(db):
    """A delivery loop keeps its statements' plans: one made while the table held a few rows
    must not read every row (or every index entry) of the table once it holds many, as it did
    after a dead endpoint's 750,000 events (13 ms a turn). The claim updates the rows it
    locked by their address."""
    await db.execute("ANALYZE webhook_deliveries")
    live = await add_endpoint(db, "https://receiver.example/live")
    dead = await add_endpoint(db, "https://receiver.example/dead", enabled=False)
    # Due a minute ago: now() is the transaction's start, and a default now() stored to the
    # millisecond may round up past it.
    add = (
        "INSERT INTO webhook_deliveries (endpoint_id, event_type, data, next_attempt_at)"
        " SELECT $1, 'flag.created', '{}', now() - interval '1 minute' FROM generate_series(1, $2)"
    )
    async with db.transaction():
        # One transaction: behind PgBouncer in transaction mode the prepared statement and the
        # settings stay on one server connection.
        await db.execute(store.SQL.lock_claims)
        await db.execute("SET LOCAL plan_cache_mode = force_generic_plan")
        await db.execute("PREPARE claim AS " + store.SQL.claim_deliveries)
        try:
            await db.fetch("EXPLAIN EXECUTE claim(10, 60)")  # planned now, on the empty table
            await db.execute(add, dead, 3000)
            await db.execute(add, live, 20)
            plan = "\n".join(r[0] for r in await db.fetch("EXPLAIN EXECUTE claim(10, 60)"))
            claimed = await db.fetch("EXECUTE claim(10, 60)")
        finally:
            await db.execute("DEALLOCATE claim")
    assert "webhook_deliveries_pkey" not in plan, plan
    assert "Tid Scan on webhook_deliveries d" in plan, plan
    assert len(claimed) == 10 and {row["endpoint_id"] for row in claimed} == {live}
