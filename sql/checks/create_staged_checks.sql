-- Creates (empty) the transaction's staging table for the loaded checks that exist already,
-- filled by COPY; returns nothing. Temporary, dropped at commit, without index: it is read
-- once, whole, by sql/checks/update_staged_checks.sql.
CREATE TEMPORARY TABLE staged_checks (LIKE checks) ON COMMIT DROP
