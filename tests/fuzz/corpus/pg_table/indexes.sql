CREATE TABLE t (id uuid PRIMARY KEY DEFAULT uuidv7(), created_at timestamptz NOT NULL DEFAULT now(), email varchar(24) UNIQUE, n serial, k char(4), CONSTRAINT t_u UNIQUE (n, k)) WITH (fillfactor = 90);
CREATE UNIQUE INDEX IF NOT EXISTS i_created ON t USING btree (created_at, n) WITH (fillfactor = 70, deduplicate_items = off);
CREATE INDEX ON t (created_at)