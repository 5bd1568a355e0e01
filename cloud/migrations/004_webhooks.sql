-- Webhooks (spec 2 "Webhook subscription", "Delivery ledger row", 3, 6): subscriptions, the
-- transactional outbox of events, the delivery ledger with its retry state, and every attempt.

-- One subscription per (account, event type, url). Credentials and the signing secret are kept
-- in clear because the cloud must send and sign with them; views never return them after creation.
CREATE TABLE webhook_subscriptions (
  id                INTEGER PRIMARY KEY,
  public_id         TEXT NOT NULL UNIQUE,
  account_id        INTEGER NOT NULL REFERENCES accounts(id),
  event_type        TEXT NOT NULL CHECK (event_type IN ('wipe_session_ready', 'wipe_session_blocked', 'asset_reported',
                                                        'hardware_tests_completed', 'wipe_session_completed', 'certificate_generated')),
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
  UNIQUE (account_id, event_type, url)
);
CREATE INDEX webhook_subscriptions_account ON webhook_subscriptions(account_id, event_type);

-- The outbox: one row per fired event, written in the transaction of the state change that fired
-- it. payload is the exact JSON text every delivery of the event sends and signs.
CREATE TABLE webhook_events (
  id          INTEGER PRIMARY KEY,
  event_id    TEXT NOT NULL UNIQUE,
  account_id  INTEGER NOT NULL REFERENCES accounts(id),
  event_type  TEXT NOT NULL,
  resource_id TEXT NOT NULL,
  revision    INTEGER NOT NULL,
  payload     TEXT NOT NULL,
  created_at  TEXT NOT NULL
);
CREATE INDEX webhook_events_account ON webhook_events(account_id, event_type, id);

-- Per-resource revision counters: each event about a resource takes the next value.
CREATE TABLE webhook_revisions (
  resource_id TEXT PRIMARY KEY,
  revision    INTEGER NOT NULL
);

-- The ledger: one row per (subscription, event). A row in `pending` is due at next_attempt_at;
-- a worker holds it while lease_until is in the future, and `attempts` (incremented by each
-- claim) fences a worker that outlived its lease. `skipped` = fired while the subscription was
-- disabled; re-enabling turns it back into `pending`.
CREATE TABLE webhook_deliveries (
  id               INTEGER PRIMARY KEY,
  subscription_id  INTEGER NOT NULL REFERENCES webhook_subscriptions(id) ON DELETE CASCADE,
  event_id         INTEGER NOT NULL REFERENCES webhook_events(id),
  status           TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed', 'skipped')),
  attempts         INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  -- Attempts allowed before `failed`; a redelivery or reconciliation grants a fresh round.
  max_attempts     INTEGER NOT NULL,
  next_attempt_at  TEXT,
  lease_until      TEXT,
  response_code    INTEGER,
  last_error       TEXT,
  delivered_at     TEXT,
  created_at       TEXT NOT NULL,
  updated_at       TEXT NOT NULL,
  UNIQUE (subscription_id, event_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(next_attempt_at, id) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_subscription ON webhook_deliveries(subscription_id, id DESC);
CREATE INDEX webhook_deliveries_event ON webhook_deliveries(event_id);

-- The delivery log: one row per attempt made.
CREATE TABLE webhook_attempts (
  id             INTEGER PRIMARY KEY,
  delivery_id    INTEGER NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
  attempt        INTEGER NOT NULL,
  outcome        TEXT NOT NULL CHECK (outcome IN ('delivered', 'failed')),
  response_code  INTEGER,
  error          TEXT,
  duration_ms    INTEGER NOT NULL,
  attempted_at   TEXT NOT NULL,
  UNIQUE (delivery_id, attempt)
);
