-- Adds the staged partners that do not exist yet (unique index on name).
INSERT INTO shop_partners (name) SELECT name FROM staged_partners ORDER BY ord
ON CONFLICT (name) DO NOTHING
