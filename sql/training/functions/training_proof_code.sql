-- Repeatable script (app/core/migrations.py): re-applied after the migrations on every start.
-- A random proof code (8 characters of ABCDEFGHJKMNPQRSTVWXYZ23456789); the unique
-- constraint on course_results.proof_code catches the rare repeat, and the writer retries.
-- The randomness is PostgreSQL's strong source (pg_strong_random, as pgcrypto's
-- gen_random_bytes, which the embedded server does not ship): 56 random bits of a version-4
-- UUID (bytes 0-5 and 7; byte 6 holds the version), written as 8 base-30 digits, the lowest
-- first. 30^8 is 2^39.3, so the modulo leaves a bias below 2^-16.
-- PL/pgSQL: its simple expressions run without an executor of their own, where the same
-- digits as one SQL query (string_agg over generate_series) took ~26 µs a code, 13 s of
-- load-data's 500,000 completions (docs/data-load.md).
CREATE OR REPLACE FUNCTION training_proof_code() RETURNS text
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    hex text := encode(uuid_send(gen_random_uuid()), 'hex');
    n bigint := ('x' || substr(hex, 1, 12) || substr(hex, 15, 2))::bit(56)::bigint;
    code text := '';
BEGIN
    FOR digit IN 1..8 LOOP
        code := code || substr('ABCDEFGHJKMNPQRSTVWXYZ23456789', 1 + (n % 30)::int, 1);
        n := n / 30;
    END LOOP;
    RETURN code;
END
$$;
