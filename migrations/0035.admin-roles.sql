-- Admin roles and markets (docs/security.md, "Admin roles and markets"). Every admin had every right
-- before roles existed, so those already there become owners; a new admin is an editor unless
-- made otherwise. An empty markets array means every market.
-- depends: 0034.webhook-event-facts

ALTER TABLE admins
    ADD COLUMN role    text   NOT NULL DEFAULT 'editor'
                              CHECK (role IN ('owner', 'editor', 'viewer')),
    ADD COLUMN markets text[] NOT NULL DEFAULT '{}'
                              CHECK (markets <@ ARRAY['AE','KW','QA','BH','OM','JO','EG','IQ']);

UPDATE admins SET role = 'owner';
