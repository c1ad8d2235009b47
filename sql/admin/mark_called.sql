-- Marks the failed or logged message $1, of a rider in the admin's markets $3 (empty: every
-- market), as passed on by telephone by $2 (the admin's email), unless it is marked already.
-- Returns rider_id, name, marked (whether this call marked it), called_by and called_at (the
-- mark as it stands); no row for a sent message or one not there. Served by the primary keys.
WITH target AS (
    SELECT m.message_id, m.rider_id, r.name, m.called_at, m.called_by
    FROM messages m
    JOIN riders r ON r.rider_id = m.rider_id
    WHERE m.message_id = $1
      AND m.status <> 'sent'
      AND (cardinality($3::text[]) = 0 OR r.market = ANY ($3))
    FOR UPDATE OF m
), marked AS (
    UPDATE messages m
    SET called_at = now(), called_by = $2
    FROM target
    WHERE m.message_id = target.message_id AND target.called_at IS NULL
    RETURNING m.called_at, m.called_by
)
SELECT t.rider_id, t.name, EXISTS (SELECT FROM marked) AS marked,
       coalesce(t.called_by, (SELECT called_by FROM marked)) AS called_by,
       coalesce(t.called_at, (SELECT called_at FROM marked)) AS called_at
FROM target t
