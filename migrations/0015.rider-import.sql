-- Rider CSV import (issue 12): the rejected rows of an import, kept server-side for a day so
-- the admin who uploaded the file can download them, fix them and upload only those again.
-- depends: 0011.link-revocation

CREATE TABLE rider_imports (
    import_id  uuid   PRIMARY KEY,
    admin_id   bigint NOT NULL REFERENCES admins ON DELETE CASCADE,
    -- The file's header record as CSV text: the first line of the rejected-rows download.
    header     text   NOT NULL,
    created_at timestamptz(3) NOT NULL DEFAULT now()
);
-- Imports older than a day are removed when the next import starts.
CREATE INDEX rider_imports_created ON rider_imports (created_at);

CREATE TABLE rider_import_rejects (
    import_id uuid    NOT NULL REFERENCES rider_imports ON DELETE CASCADE,
    -- The record's number in the file (1 is the header).
    line      integer NOT NULL,
    -- The record's original cells as CSV text, without the line end.
    cells     text    NOT NULL,
    error     text    NOT NULL,
    PRIMARY KEY (import_id, line)
);
