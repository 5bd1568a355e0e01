-- The SQLite migration 028_floor_machines on PostgreSQL.
-- Issue 32, the floor view: the latest live state each machine or station reported (POST
-- /api/floor_report), one row per machine of an account, overwritten by each newer report. A
-- new boot (boot_id) replaces the last boot's whatever its sequence; within one boot a report not
-- newer than the row's is ignored. Rows older than a day are no longer shown and are pruned.
CREATE TABLE floor_machines (
  account_id   BIGINT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  machine_id   TEXT NOT NULL,
  boot_id      TEXT NOT NULL,
  sequence     BIGINT NOT NULL,
  token_id     BIGINT NOT NULL REFERENCES license_tokens(id) ON DELETE CASCADE,
  report       TEXT NOT NULL,
  received_at  TEXT NOT NULL,
  -- When this boot's first report arrived: a wipe result of a reported drive stored since then
  -- ends that drive on the board.
  boot_seen_at TEXT NOT NULL,
  PRIMARY KEY (account_id, machine_id)
);
-- Where the machine stands, for the floor view's grouping: set per device token.
ALTER TABLE license_tokens ADD COLUMN site TEXT;
