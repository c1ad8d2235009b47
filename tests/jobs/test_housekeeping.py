"""The housekeeping job: what is kept only for a while goes, what is still in use stays."""

import structlog

from jobs import JOBS
from tests.messaging.rows import add_rider

housekeeping = JOBS["housekeeping"].run

ARRANGE = [
    "INSERT INTO admins (email, name, password_hash) VALUES ('a@example.com', 'A', 'x')",
    # Sessions: one expired a second ago, one live.
    """INSERT INTO web_sessions (id_hash, kind, admin_id, csrf_secret, expires_at)
       VALUES ('\\x01', 'admin', 1, 's', now() - interval '1 second'),
              ('\\x02', 'admin', 1, 's', now() + interval '1 minute')""",
    # Failed sign-ins: outside and inside the 15-minute window, of every kind.
    """INSERT INTO sign_in_attempts (kind, subject, at)
       VALUES ('admin', 'gone@example.com', now() - interval '16 minutes'),
              ('rider', 'R-1', now() - interval '15 minutes 1 second'),
              ('verify', '10.0.0.1', now() - interval '1 day'),
              ('rider', 'R-1', now() - interval '14 minutes')""",
    # Assistant questions: outside and inside the hour.
    """INSERT INTO assistant_questions (rider_id, asked_at)
       VALUES ('R-1', now() - interval '61 minutes'), ('R-1', now() - interval '59 minutes')""",
    # Rider imports: one of two days ago with a rejected row, one of an hour ago.
    """INSERT INTO rider_imports (import_id, admin_id, header, created_at)
       VALUES ('00000000-0000-4000-8000-000000000001', 1, 'riderId', now() - interval '2 days'),
              ('00000000-0000-4000-8000-000000000002', 1, 'riderId', now() - interval '1 hour')""",
    """INSERT INTO rider_import_rejects (import_id, line, cells, error)
       VALUES ('00000000-0000-4000-8000-000000000001', 2, 'x', 'name is required'),
              ('00000000-0000-4000-8000-000000000002', 2, 'y', 'name is required')""",
    # Idempotency-Keys: one expired a second ago, one live.
    """INSERT INTO idempotency_keys (scope, key, body_hash, expires_at)
       VALUES ('POST /api/v1/riders x', 'old', '\\x00', now() - interval '1 second'),
              ('POST /api/v1/riders x', 'new', '\\x00', now() + interval '1 hour')""",
    # Webhook deliveries: one of 31 days ago, one of 29.
    """INSERT INTO webhook_endpoints (url, events, secret)
       VALUES ('https://example.com/hook', '{flag.created}', 'whsec_c2VjcmV0')""",
    """INSERT INTO webhook_deliveries (endpoint_id, event_type, data, created_at, status)
       SELECT endpoint_id, 'flag.created', jsonb_build_object('age', age),
              now() - make_interval(days => age), 'succeeded'
       FROM webhook_endpoints, unnest(ARRAY[31, 29]) AS age""",
    # One-time reveals: one expired a second ago (never taken), one taken and still live.
    """INSERT INTO admin_reveals (session_hash, kind, subject, pad, expires_at)
       VALUES ('\\x02', 'rider_pin', 'R-1', '\\x0102', now() - interval '1 second'),
              ('\\x02', 'api_key', 'acme', NULL, now() + interval '1 minute')""",
    # Audit events: past the default 365 days of AUDIT_RETENTION_DAYS, and within them.
    """INSERT INTO audit_events (at, actor, action, target)
       SELECT now() - make_interval(days => age), 'cli', 'links.revoked', age::text
       FROM unnest(ARRAY[366, 364, 20]) AS age""",
]


async def test_removes_what_has_expired_and_keeps_what_is_in_use(db, job_context):
    await add_rider(db, "R-1")
    for statement in ARRANGE:
        await db.execute(statement)
    with structlog.testing.capture_logs() as logs:
        result = await housekeeping(job_context())
    assert result == (
        "removed 1 expired sessions, 3 old failed sign-ins, 1 old assistant questions, "
        "1 old rider imports, 1 expired idempotency keys, 1 old webhook deliveries, "
        "1 expired one-time reveals, 1 audit events older than 365 days"
    )
    (line,) = [e for e in logs if e["event"] == "housekeeping done"]
    assert (line["sessions"], line["sign_ins"], line["questions"], line["imports"]) == (1, 3, 1, 1)
    assert await db.fetchval("SELECT array_agg(id_hash) FROM web_sessions") == [b"\x02"]
    assert await db.fetch("SELECT kind, subject FROM sign_in_attempts") == [("rider", "R-1")]
    assert await db.fetchval("SELECT count(*) FROM assistant_questions") == 1
    assert await db.fetchval("SELECT array_agg(cells) FROM rider_import_rejects") == ["y"]
    assert await db.fetchval("SELECT array_agg(key) FROM idempotency_keys") == ["new"]
    assert await db.fetchval("SELECT array_agg(data) FROM webhook_deliveries") == [{"age": 29}]
    assert await db.fetchval("SELECT array_agg(subject) FROM admin_reveals") == ["acme"]
    assert await _audit_targets(db) == ["20", "364"]
    again = await housekeeping(job_context())
    assert again.startswith("removed 0 expired sessions, 0 old failed sign-ins, 0 old")


async def _audit_targets(db) -> list[str]:
    return await db.fetchval("SELECT array_agg(target ORDER BY target) FROM audit_events")


async def test_audit_events_are_kept_audit_retention_days(db, job_context):
    """AUDIT_RETENTION_DAYS=30: an event of 31 days goes, one of 29 days stays."""
    await db.execute(
        """INSERT INTO audit_events (at, actor, action, target)
           SELECT now() - make_interval(days => age), 'cli', 'links.revoked', age::text
           FROM unnest(ARRAY[31, 29]) AS age"""
    )
    result = await housekeeping(job_context(AUDIT_RETENTION_DAYS="30"))
    assert result.endswith(", 1 audit events older than 30 days")
    assert await _audit_targets(db) == ["29"]
