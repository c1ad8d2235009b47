-- Upserts currency rates (primary key).
INSERT INTO shop_currency_rates (currency, eur_rate)
SELECT * FROM unnest($1::text[], $2::numeric[])
ON CONFLICT (currency) DO UPDATE SET eur_rate = excluded.eur_rate
