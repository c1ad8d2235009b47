-- Repeatable script (app/core/migrations.py): re-applied after the migrations on every start.
-- The import (POST /api/import/users) of already field-validated records, in request order:
-- each record runs in its own exception block, i.e. its own savepoint, so a failed record
-- never undoes another, and a later record sees the users the earlier ones saved. Conflict
-- checks come in the documented order; a unique violation from a concurrent import of the
-- same values is reported with the same text. Records are jsonb objects with `index`,
-- optional `id`, `email` (lower-cased), `first_name`, `last_name`, `partner_name`, `active`,
-- and `ridehail_id`/`agency_id` when the record carries them (present-and-null clears).
CREATE OR REPLACE FUNCTION shop_import_users(records jsonb)
RETURNS TABLE (index integer, user_id bigint, saved_ridehail_id text, action text, error text)
LANGUAGE plpgsql AS $$
DECLARE
    r          jsonb;
    given_id   bigint;
    partner    bigint;
    constraint_name text;
BEGIN
    FOR r IN SELECT value FROM jsonb_array_elements(records) LOOP
        index := (r->>'index')::integer;
        given_id := (r->>'id')::bigint;
        user_id := NULL;
        saved_ridehail_id := NULL;
        action := NULL;
        error := NULL;
        BEGIN
            SELECT p.id INTO partner FROM shop_partners p WHERE p.name = r->>'partner_name';
            IF NOT FOUND THEN
                error := format('Partner not found: %s.', r->>'partner_name');
            ELSIF given_id IS NOT NULL
                  AND NOT EXISTS (SELECT FROM shop_users u WHERE u.id = given_id) THEN
                error := format('User not found for id: %s.', given_id);
            ELSIF EXISTS (SELECT FROM shop_users u
                          WHERE u.email = lower(r->>'email') AND u.id IS DISTINCT FROM given_id) THEN
                error := 'Email already belongs to a different user.';
            ELSIF r->>'ridehail_id' IS NOT NULL
                  AND EXISTS (SELECT FROM shop_users u WHERE u.ridehail_id = r->>'ridehail_id'
                              AND u.id IS DISTINCT FROM given_id) THEN
                error := 'ridehail_id already belongs to a different user.';
            ELSIF r->>'agency_id' IS NOT NULL
                  AND EXISTS (SELECT FROM shop_users u WHERE u.agency_id = r->>'agency_id'
                              AND u.id IS DISTINCT FROM given_id) THEN
                error := 'agency_id already belongs to a different user.';
            ELSIF given_id IS NOT NULL THEN
                UPDATE shop_users u SET
                    email = lower(r->>'email'),
                    first_name = r->>'first_name',
                    last_name = r->>'last_name',
                    partner_id = partner,
                    active = (r->>'active')::integer = 1,
                    ridehail_id = CASE WHEN r ? 'ridehail_id' THEN r->>'ridehail_id'
                                       ELSE u.ridehail_id END,
                    agency_id = CASE WHEN r ? 'agency_id' THEN r->>'agency_id' ELSE u.agency_id END,
                    updated_at = now()
                WHERE u.id = given_id
                RETURNING u.id, u.ridehail_id INTO user_id, saved_ridehail_id;
                action := 'updated';
            ELSE
                INSERT INTO shop_users (email, ridehail_id, agency_id, first_name, last_name,
                                        partner_id, active)
                VALUES (lower(r->>'email'), r->>'ridehail_id', r->>'agency_id', r->>'first_name',
                        r->>'last_name', partner, (r->>'active')::integer = 1)
                RETURNING shop_users.id, shop_users.ridehail_id INTO user_id, saved_ridehail_id;
                action := 'created';
            END IF;
        EXCEPTION WHEN unique_violation THEN
            GET STACKED DIAGNOSTICS constraint_name = CONSTRAINT_NAME;
            user_id := NULL;
            saved_ridehail_id := NULL;
            action := NULL;
            error := CASE constraint_name
                WHEN 'shop_users_ridehail_id_key'
                    THEN 'ridehail_id already belongs to a different user.'
                WHEN 'shop_users_agency_id_key'
                    THEN 'agency_id already belongs to a different user.'
                ELSE 'Email already belongs to a different user.' END;
        END;
        RETURN NEXT;
    END LOOP;
END
$$;
