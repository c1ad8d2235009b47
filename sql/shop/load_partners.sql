-- Adds the partners named $1 that do not exist yet (unique index on name).
INSERT INTO shop_partners (name) SELECT unnest($1::text[]) ON CONFLICT (name) DO NOTHING
