-- The SQLite migration 030_drive_job_details on PostgreSQL.
-- Issue 31 item 6, per bay: job details a station operator typed or scanned for one drive (by its
-- serial) of the boot's record. A wipe result of that record and serial takes them first, then the
-- record's ("for all new drives"), then the token's customer and lot. NULL: none given for the drive.
CREATE TABLE drive_job_details (
  asset_id      BIGINT NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
  drive_serial  TEXT NOT NULL,
  customer      TEXT,
  lot_reference TEXT,
  asset_tag     TEXT,
  updated_at    TEXT NOT NULL,
  PRIMARY KEY (asset_id, drive_serial)
);
