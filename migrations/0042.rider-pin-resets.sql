-- Rider sign-in (docs/rider-app.md, "Sign-in" and "Forgot your PIN?"): a rider ID matches
-- case-insensitively when only one rider matches so, a look-up this index serves; and the new
-- PIN a rider asked for, valid beside the old one until it is first used (then it replaces
-- it), for a day, and only while the PIN it replaces is still the rider's.
-- depends: 0041.webhook-answers-forgotten

CREATE INDEX riders_rider_id_folded ON riders (lower(rider_id));

CREATE TABLE pin_resets (
    rider_id   text        PRIMARY KEY REFERENCES riders (rider_id) ON DELETE CASCADE,
    pin_hash   text        NOT NULL,
    replaces   text        NOT NULL,
    expires_at timestamptz NOT NULL
);

ALTER TABLE messages DROP CONSTRAINT messages_kind_check;
ALTER TABLE messages ADD CONSTRAINT messages_kind_check
    CHECK (kind IN ('reminder', 'flag', 'pin_reset'));

ALTER TABLE sign_in_attempts DROP CONSTRAINT sign_in_attempts_kind_check;
ALTER TABLE sign_in_attempts ADD CONSTRAINT sign_in_attempts_kind_check
    CHECK (kind IN ('admin', 'rider', 'verify', 'pin_reset'));
