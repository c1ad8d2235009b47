-- The admin panel's one-time notices (docs/admin-panel.md, "After every action"): what a form
-- did, kept for the page its POST redirects to, which shows it once and deletes it; and the
-- call list's mark on a message a person passed on by telephone.
-- depends: 0042.rider-pin-resets

CREATE TABLE admin_notices (
    notice_id    uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    -- Only the session that made it may read it; it ends with that session.
    session_hash bytea NOT NULL REFERENCES web_sessions (id_hash) ON DELETE CASCADE,
    message      text  NOT NULL,
    created_at   timestamptz(3) NOT NULL DEFAULT now()
);
-- The cascade from an ended session.
CREATE INDEX admin_notices_session ON admin_notices (session_hash);

ALTER TABLE messages ADD COLUMN called_at timestamptz(3), ADD COLUMN called_by text;
ALTER TABLE messages ADD CONSTRAINT messages_called
    CHECK ((called_at IS NULL) = (called_by IS NULL));
