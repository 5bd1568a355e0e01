-- Issue 32: a sandbox subscription may name `drive_stalled`, the floor view's event beyond the
-- spec's six. The CHECK on event_type is widened by rebuilding the table, rows and ids kept.
-- sqlite: rebuilds tables (foreign keys off)
CREATE TABLE sandbox_webhooks_new (
  id                INTEGER PRIMARY KEY,
  prefix_id         TEXT NOT NULL UNIQUE,
  account_id        INTEGER NOT NULL REFERENCES accounts(id),
  event_type        TEXT NOT NULL CHECK (event_type IN ('wipe_session_ready', 'wipe_session_blocked', 'asset_reported',
                                                        'hardware_tests_completed', 'wipe_session_completed', 'certificate_generated',
                                                        'drive_stalled')),
  url               TEXT NOT NULL,
  signing_secret    TEXT NOT NULL,
  auth_type         TEXT NOT NULL DEFAULT 'none' CHECK (auth_type IN ('none', 'bearer', 'basic')),
  auth_token        TEXT,
  auth_username     TEXT,
  auth_password     TEXT,
  active            INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
  failure_count     INTEGER NOT NULL DEFAULT 0 CHECK (failure_count >= 0),
  auto_disabled_at  TEXT,
  created_at        TEXT NOT NULL,
  updated_at        TEXT NOT NULL
);
INSERT INTO sandbox_webhooks_new SELECT * FROM sandbox_webhooks;
DROP TABLE sandbox_webhooks;
ALTER TABLE sandbox_webhooks_new RENAME TO sandbox_webhooks;
CREATE INDEX sandbox_webhooks_fanout ON sandbox_webhooks(account_id, event_type, active);
