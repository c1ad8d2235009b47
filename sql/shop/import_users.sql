-- Saves field-validated import records in request order, one savepoint each (see the
-- shop_import_users function in sql/shop/functions/shop_import_users.sql); one row per record:
-- index, user_id, saved_ridehail_id, action ('created'|'updated') or error. Lookups use the
-- unique indexes on shop_partners.name and shop_users email/ridehail_id/agency_id.
SELECT index, user_id, saved_ridehail_id, action, error FROM shop_import_users($1::jsonb)
