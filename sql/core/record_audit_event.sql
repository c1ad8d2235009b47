-- Appends one audit event: actor $1, address $2, action $3, target $4, summary $5. Returns
-- nothing. Run in the transaction of the change it records.
INSERT INTO audit_events (actor, address, action, target, summary)
VALUES ($1, $2, $3, $4, $5)
