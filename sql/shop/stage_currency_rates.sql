-- Creates (empty) the transaction's staging table of a file's currency rates, filled by COPY.
-- Temporary, dropped at commit, without index.
CREATE TEMPORARY TABLE staged_currency_rates (ord integer, currency text, eur_rate numeric)
ON COMMIT DROP
