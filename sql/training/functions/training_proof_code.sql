-- Repeatable script (app/core/migrations.py): re-applied after the migrations on every start.
-- A random proof code (8 characters of ABCDEFGHJKMNPQRSTVWXYZ23456789); the unique
-- constraint on course_results.proof_code catches the rare repeat, and the writer retries.
-- The randomness is PostgreSQL's strong source (pg_strong_random, as pgcrypto's
-- gen_random_bytes, which the embedded server does not ship): 56 random bits of a version-4
-- UUID (bytes 0-5 and 7; byte 6 holds the version), written as 8 base-30 digits. 30^8 is
-- 2^39.3, so the modulo leaves a bias below 2^-16.
CREATE OR REPLACE FUNCTION training_proof_code() RETURNS text
LANGUAGE sql VOLATILE AS $$
    SELECT string_agg(substr('ABCDEFGHJKMNPQRSTVWXYZ23456789',
                             1 + ((r.n / power(30, digit - 1)::bigint) % 30)::int, 1), ''
                      ORDER BY digit)
    FROM (SELECT ('x' || substr(hex, 1, 12) || substr(hex, 15, 2))::bit(56)::bigint AS n
          FROM encode(uuid_send(gen_random_uuid()), 'hex') AS hex) r,
         generate_series(1, 8) AS digit
$$;
