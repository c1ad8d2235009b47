-- Records messages to riders, one row per array element ($1 rider ids, $2 kind, $3 bodies,
-- $4 links, $5 statuses, $6 provider message ids, $7 error texts). Returns nothing.
INSERT INTO messages (rider_id, kind, body, link, status, provider_message_id, error)
SELECT rider_id, $2, body, link, status, provider_message_id, error
FROM unnest($1::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
    AS m (rider_id, body, link, status, provider_message_id, error)
