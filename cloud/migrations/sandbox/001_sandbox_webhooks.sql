-- Sandbox-only tables, applied to the sandbox's own SQLite file after the cloud's migrations
-- (adapters/db/sandbox/open.ts). They live in their own folder so the production database
-- never carries them: the cloud's webhooks have their own durable ledger and retry schedule.

-- Spec 2 "Webhook subscription (sandbox)". auth_* hold the credentials of auth_type.
CREATE TABLE sandbox_webhooks (
  id                INTEGER PRIMARY KEY,
  prefix_id         TEXT NOT NULL UNIQUE,
  account_id        INTEGER NOT NULL REFERENCES accounts(id),
  event_type        TEXT NOT NULL CHECK (event_type IN ('wipe_session_ready', 'wipe_session_blocked', 'asset_reported',
                                                        'hardware_tests_completed', 'wipe_session_completed', 'certificate_generated')),
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
CREATE INDEX sandbox_webhooks_fanout ON sandbox_webhooks(account_id, event_type, active);

-- Spec 2 "Delivery ledger row": one per (subscription, event_id); payload is the exact signed text.
-- Deleting a subscription deletes its rows (spec 4.6).
CREATE TABLE sandbox_deliveries (
  id             INTEGER PRIMARY KEY,
  webhook_id     INTEGER NOT NULL REFERENCES sandbox_webhooks(id) ON DELETE CASCADE,
  account_id     INTEGER NOT NULL REFERENCES accounts(id),
  event_id       TEXT NOT NULL,
  event_type     TEXT NOT NULL,
  payload        TEXT NOT NULL,
  status         TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts       INTEGER NOT NULL DEFAULT 0,
  response_code  INTEGER,
  last_error     TEXT,
  delivered_at   TEXT,
  created_at     TEXT NOT NULL,
  UNIQUE (webhook_id, event_id)
);
CREATE INDEX sandbox_deliveries_webhook ON sandbox_deliveries(webhook_id);

-- Spec 2 "Sink capture": what `sandbox://sink` received. Keyed by the subscription's prefix id
-- as text, so a capture outlives a deleted subscription (its signature then reads as invalid).
CREATE TABLE sandbox_sink_captures (
  id                 INTEGER PRIMARY KEY,
  webhook_prefix_id  TEXT NOT NULL,
  event_type         TEXT NOT NULL,
  headers            TEXT NOT NULL,
  body               TEXT NOT NULL,
  received_at        TEXT NOT NULL
);
