"""Migration 0041: the attempts recorded before it lose the answers' bodies and the error
texts that told an open port from a closed one."""

import psycopg

from tests.migration_step import before
from tests.webhooks.rows import SECRET

ATTEMPTS = [
    # (last_status, last_answer) as the earlier code recorded them.
    (500, "internal-answer-7f3c: what a machine of the network said"),
    (204, None),
    (None, "No answer within 15 s."),
    (None, "Not sent: ClientConnectorError(ConnectionKey(host='10.0.0.5', port=22), …)"),
    (None, None),
]


def test_earlier_attempts_keep_their_status_and_lose_what_was_answered(empty_database_url):
    with (
        before(empty_database_url, "0041.webhook-answers-forgotten"),
        psycopg.connect(empty_database_url) as conn,
    ):
        endpoint = conn.execute(
            "INSERT INTO webhook_endpoints (url, events, secret)"
            " VALUES ('https://hooks.example/x', '{flag.created}', %s) RETURNING endpoint_id",
            [SECRET],
        ).fetchone()[0]
        for status, answer in ATTEMPTS:
            conn.execute(
                "INSERT INTO webhook_deliveries (endpoint_id, event_type, data, attempts,"
                " last_status, last_answer) VALUES (%s, 'flag.created', '{}', 1, %s, %s)",
                [endpoint, status, answer],
            )
    with psycopg.connect(empty_database_url) as conn:
        rows = conn.execute(
            "SELECT last_status, last_answer FROM webhook_deliveries ORDER BY delivery_id"
        ).fetchall()
    assert rows == [
        (500, None),
        (204, None),
        (None, "timed out"),
        (None, "connection failed"),
        (None, None),
    ]
