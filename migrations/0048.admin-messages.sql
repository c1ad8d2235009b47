-- A message an editor writes to the riders ticked on the riders list (docs/admin-riders.md,
-- "Message the riders ticked"): a kind of its own, so the messages list and export tell it
-- from reminders, flags and PIN resets.
-- depends: 0047.assignments-by-path

ALTER TABLE messages DROP CONSTRAINT messages_kind_check;
ALTER TABLE messages ADD CONSTRAINT messages_kind_check
    CHECK (kind IN ('reminder', 'flag', 'pin_reset', 'admin'));
