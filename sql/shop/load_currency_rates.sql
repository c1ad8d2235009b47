-- Upserts the staged currency rates (primary key).
INSERT INTO shop_currency_rates (currency, eur_rate)
SELECT currency, eur_rate FROM staged_currency_rates ORDER BY ord
ON CONFLICT (currency) DO UPDATE SET eur_rate = excluded.eur_rate
