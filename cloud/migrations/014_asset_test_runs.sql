-- Issue 28 (14): hardware tests kept per boot. A submission replaces the snapshot of its own boot
-- (record_id) only, so a later boot that only auto-detected Wi-Fi no longer wipes out "keyboard
-- passed, display failed" from the boot before. `assets.test_results` stays the latest snapshot as
-- the spec and the webhook describe it; the web app reads the latest result of each test from here.
CREATE TABLE asset_test_runs (
  asset_id      INTEGER NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
  record_id     TEXT NOT NULL,
  tests         TEXT NOT NULL,
  submitted_at  TEXT NOT NULL,
  PRIMARY KEY (asset_id, record_id)
);
-- The one snapshot each asset kept so far becomes its boot's run.
INSERT INTO asset_test_runs (asset_id, record_id, tests, submitted_at)
  SELECT id, record_id, test_results, updated_at FROM assets WHERE test_results <> '{}';
