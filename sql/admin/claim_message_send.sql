-- Claims the confirmed message $1 for admin $2: its send_id when this request is the first to
-- confirm it, no row when it was claimed before (a double-click or a resent form). Served by
-- admin_message_sends' primary key.
INSERT INTO admin_message_sends (send_id, admin_id)
VALUES ($1, $2)
ON CONFLICT (send_id) DO NOTHING
RETURNING send_id
