-- A message an editor writes to the riders ticked on the riders list (docs/admin-riders.md,
-- "Message the riders ticked"): a kind of its own, so the messages list and export tell it
-- from reminders, flags and PIN resets.
-- depends: 0047.assignments-by-path

ALTER TABLE messages DROP CONSTRAINT messages_kind_check;
ALTER TABLE messages ADD CONSTRAINT messages_kind_check
    CHECK (kind IN ('reminder', 'flag', 'pin_reset', 'admin'));

-- One row per confirmed message, claimed before anything is sent: the confirm page carries a
-- random send_id, so a double-click or a resent form finds its row taken and sends nothing
-- again, on any instance. A row a confirmed message (a few a day): kept, like the messages.
CREATE TABLE admin_message_sends (
    send_id    uuid PRIMARY KEY,
    admin_id   bigint NOT NULL REFERENCES admins ON DELETE CASCADE,
    claimed_at timestamptz NOT NULL DEFAULT now()
);
