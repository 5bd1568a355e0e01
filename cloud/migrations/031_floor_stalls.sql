-- Issue 32, stalls: each reported drive's last byte progress and since when it stands still
-- (JSON by device: bytes, stage, since, and the stall already announced), kept with the
-- machine's row; and the account's stall time, 10 minutes unless it sets its own.
ALTER TABLE floor_machines ADD COLUMN progress TEXT NOT NULL DEFAULT '{}';
ALTER TABLE accounts ADD COLUMN floor_stall_seconds INTEGER NOT NULL DEFAULT 600;

-- `drive_stalled`, a webhook event beyond the spec's six: subscriptions may name it. The CHECK on
-- event_type is widened by rebuilding the table as migration 017 did, rows and ids kept.
-- sqlite: rebuilds tables (foreign keys off)
CREATE TABLE webhook_subscriptions_new (
  id                INTEGER PRIMARY KEY,
  public_id         TEXT NOT NULL UNIQUE,
  account_id        INTEGER NOT NULL REFERENCES accounts(id),
  event_type        TEXT NOT NULL CHECK (event_type IN ('wipe_session_ready', 'wipe_session_blocked', 'asset_reported',
                                                        'hardware_tests_completed', 'wipe_session_completed', 'certificate_generated',
                                                        'validation_rejected', 'drive_stalled')),
  url               TEXT NOT NULL,
  signing_secret    TEXT NOT NULL CHECK (length(signing_secret) = 64),
  auth_type         TEXT NOT NULL DEFAULT 'none' CHECK (auth_type IN ('none', 'bearer', 'basic')),
  auth_token        TEXT,
  auth_username     TEXT,
  auth_password     TEXT,
  active            INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
  -- Consecutive failed attempts; 5 auto-disable. failing_since is the first failure of the streak.
  failure_count     INTEGER NOT NULL DEFAULT 0 CHECK (failure_count >= 0),
  failing_since     TEXT,
  auto_disabled_at  TEXT,
  disabled_at       TEXT,
  -- Re-enabling redelivers the failed or skipped deliveries last touched at or after this instant.
  reconcile_from    TEXT,
  last_error        TEXT,
  last_error_at     TEXT,
  last_success_at   TEXT,
  created_at        TEXT NOT NULL,
  updated_at        TEXT NOT NULL,
  previous_signing_secret     TEXT CHECK (previous_signing_secret IS NULL OR length(previous_signing_secret) = 64),
  previous_secret_expires_at  TEXT,
  more_event_types            TEXT NOT NULL DEFAULT '',
  UNIQUE (account_id, event_type, url)
);
INSERT INTO webhook_subscriptions_new SELECT * FROM webhook_subscriptions;
DROP TABLE webhook_subscriptions;
ALTER TABLE webhook_subscriptions_new RENAME TO webhook_subscriptions;
CREATE INDEX webhook_subscriptions_account ON webhook_subscriptions(account_id, event_type);
