-- Issue 29 (5): validation sampling per lot (R2v3 Appendix B). A lot is a device token's
-- customer + lot reference (migration 012); wipes from a token without a lot belong to none.
-- The account's rate: no row = 5 %. Only an account admin writes it.
CREATE TABLE validation_settings (
  account_id          INTEGER PRIMARY KEY REFERENCES accounts(id),
  rate_percent        INTEGER NOT NULL CHECK (rate_percent BETWEEN 1 AND 100),
  updated_by_user_id  INTEGER REFERENCES users(id),
  created_at          TEXT NOT NULL,
  updated_at          TEXT NOT NULL
);
-- One row per lot, made at its first certified wipe. `rate_percent` follows the account's rate
-- while the lot is open and is frozen when an admin closes it. `needs_attention`: a picked drive
-- failed its validation.
CREATE TABLE validation_lots (
  id               INTEGER PRIMARY KEY,
  public_id        TEXT NOT NULL UNIQUE,
  account_id       INTEGER NOT NULL REFERENCES accounts(id),
  customer         TEXT NOT NULL DEFAULT '',
  lot_reference    TEXT NOT NULL,
  rate_percent     INTEGER NOT NULL CHECK (rate_percent BETWEEN 1 AND 100),
  closed_at        TEXT,
  needs_attention  INTEGER NOT NULL DEFAULT 0,
  created_at       TEXT NOT NULL,
  updated_at       TEXT NOT NULL,
  UNIQUE (account_id, customer, lot_reference)
);
-- One row per picked drive; the validation's outcome fills in once reported. `report_id` is the
-- device's id for its report (a repeat of it is the same report). `disposition_before` is the
-- signed disposition, so the tamper check still compares against what was signed.
CREATE TABLE validation_samples (
  id                  INTEGER PRIMARY KEY,
  lot_id              INTEGER NOT NULL REFERENCES validation_lots(id),
  wipe_result_id      INTEGER NOT NULL UNIQUE REFERENCES wipe_results(id),
  picked_at           TEXT NOT NULL,
  outcome             TEXT CHECK (outcome IN ('approved', 'rejected')),
  reason              TEXT,
  findings            TEXT,
  report_id           TEXT,
  disposition_before  TEXT,
  validated_at        TEXT,
  validated_token_id  INTEGER REFERENCES license_tokens(id)
);
CREATE INDEX validation_samples_lot ON validation_samples(lot_id);

-- `validation_rejected`, a webhook event beyond the spec's six: subscriptions may name it. The
-- CHECK on event_type is widened by rebuilding the table, rows and ids kept; its deliveries keep
-- pointing at it by name.
-- sqlite: rebuilds tables (foreign keys off)
CREATE TABLE webhook_subscriptions_new (
  id                INTEGER PRIMARY KEY,
  public_id         TEXT NOT NULL UNIQUE,
  account_id        INTEGER NOT NULL REFERENCES accounts(id),
  event_type        TEXT NOT NULL CHECK (event_type IN ('wipe_session_ready', 'wipe_session_blocked', 'asset_reported',
                                                        'hardware_tests_completed', 'wipe_session_completed', 'certificate_generated',
                                                        'validation_rejected')),
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
