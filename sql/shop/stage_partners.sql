-- Creates (empty) the transaction's staging table of a file's partners, filled by COPY; returns
-- nothing. Temporary, dropped at commit, without index: each statement reads it whole.
CREATE TEMPORARY TABLE staged_partners (ord integer, name text) ON COMMIT DROP
