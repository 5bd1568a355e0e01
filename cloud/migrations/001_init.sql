-- Accounts, users and device tokens: the entitlement side.
CREATE TABLE accounts (
  id                   INTEGER PRIMARY KEY,
  public_id            TEXT NOT NULL UNIQUE,
  name                 TEXT NOT NULL,
  -- The account is active while its subscription is trialing, active or past_due (dunning
  -- grace) and its paid period has not ended; see adapters/db/accounts.ts ACTIVE_SQL.
  subscription_status  TEXT NOT NULL DEFAULT 'active'
    CHECK (subscription_status IN ('trialing', 'active', 'past_due', 'canceled', 'unpaid')),
  current_period_end   TEXT,
  created_at           TEXT NOT NULL,
  updated_at           TEXT NOT NULL
);

CREATE TABLE users (
  id             INTEGER PRIMARY KEY,
  public_id      TEXT NOT NULL UNIQUE,
  account_id     INTEGER NOT NULL REFERENCES accounts(id),
  email          TEXT NOT NULL UNIQUE COLLATE NOCASE,
  password_hash  TEXT NOT NULL,
  role           TEXT NOT NULL CHECK (role IN ('admin', 'technician', 'staff')),
  created_at     TEXT NOT NULL
);

CREATE TABLE license_tokens (
  id            INTEGER PRIMARY KEY,
  prefix_id     TEXT NOT NULL UNIQUE,
  jti           TEXT NOT NULL UNIQUE,
  account_id    INTEGER NOT NULL REFERENCES accounts(id),
  user_email    TEXT,
  product       TEXT NOT NULL CHECK (product IN ('engine', 'hotswap')),
  status        TEXT NOT NULL CHECK (status IN ('active', 'revoked', 'suspended', 'disabled')),
  quota_limit   INTEGER CHECK (quota_limit IS NULL OR quota_limit >= 0),
  use_count     INTEGER NOT NULL DEFAULT 0 CHECK (use_count >= 0),
  last_seen_at  TEXT,
  revoked_at    TEXT,
  expires_at    TEXT,
  created_at    TEXT NOT NULL,
  updated_at    TEXT NOT NULL
);
CREATE INDEX license_tokens_account ON license_tokens(account_id);

-- One row per metered check-in: the job_id handed to the device and who spent it.
CREATE TABLE checkins (
  job_id      TEXT PRIMARY KEY,
  token_id    INTEGER NOT NULL REFERENCES license_tokens(id),
  account_id  INTEGER NOT NULL REFERENCES accounts(id),
  created_at  TEXT NOT NULL
);

-- One row per physical machine per account, keyed by DMI identity.
CREATE TABLE assets (
  id                  INTEGER PRIMARY KEY,
  public_id           TEXT NOT NULL UNIQUE,
  account_id          INTEGER NOT NULL REFERENCES accounts(id),
  hardware_uid        TEXT NOT NULL,
  record_id           TEXT NOT NULL,
  engine_version      TEXT,
  fingerprint         TEXT NOT NULL,
  manufacturer        TEXT,
  model               TEXT,
  serial_number       TEXT,
  board_model         TEXT,
  board_serial        TEXT,
  asset_tag           TEXT,
  bios_version        TEXT,
  tpm_version         TEXT,
  firmware_mode       TEXT,
  secure_boot         INTEGER,
  cpu_model           TEXT,
  cpu_cores           INTEGER,
  cpu_threads         INTEGER,
  memory_total_bytes  INTEGER,
  gpu                 TEXT,
  storage_summary     TEXT,
  storage_serials     TEXT,
  battery_health_pct  INTEGER,
  notes               TEXT,
  test_results        TEXT NOT NULL DEFAULT '{}',
  first_token_id      INTEGER REFERENCES license_tokens(id),
  technician          TEXT,
  boot_count          INTEGER NOT NULL DEFAULT 1,
  first_seen_at       TEXT NOT NULL,
  last_booted_at      TEXT NOT NULL,
  audited_at          TEXT NOT NULL,
  updated_at          TEXT NOT NULL,
  UNIQUE (account_id, hardware_uid)
);
CREATE INDEX assets_account_record ON assets(account_id, record_id);
CREATE INDEX assets_account_updated ON assets(account_id, updated_at DESC, id DESC);

CREATE TABLE wipe_results (
  id                   INTEGER PRIMARY KEY,
  public_id            TEXT NOT NULL UNIQUE,
  account_id           INTEGER NOT NULL REFERENCES accounts(id),
  token_id             INTEGER NOT NULL REFERENCES license_tokens(id),
  job_id               TEXT NOT NULL,
  drive_serial         TEXT,
  drive_model          TEXT,
  drive_capacity_gb    INTEGER,
  wipe_method          TEXT,
  passes_completed     INTEGER,
  started_at           TEXT,
  completed_at         TEXT,
  verification_hash    TEXT,
  wipe_status          TEXT,
  technique            TEXT,
  validation           TEXT,
  disposition          TEXT,
  markings_removed     INTEGER,
  tool_components      TEXT,
  verification_result  TEXT,
  certifiable          INTEGER NOT NULL,
  certificate_status   TEXT CHECK (certificate_status IN ('pending', 'generating', 'complete', 'failed')),
  created_at           TEXT NOT NULL,
  updated_at           TEXT NOT NULL,
  UNIQUE (account_id, job_id)
);
CREATE INDEX wipe_results_account_created ON wipe_results(account_id, created_at DESC, id DESC);

-- Durable background work (certificate generation now, webhook deliveries later):
-- claimed with a lease so a crashed worker's job is picked up again.
CREATE TABLE jobs (
  id           INTEGER PRIMARY KEY,
  kind         TEXT NOT NULL,
  subject_id   INTEGER NOT NULL,
  status       TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'running', 'done', 'failed')),
  attempts     INTEGER NOT NULL DEFAULT 0,
  run_at       TEXT NOT NULL,
  lease_until  TEXT,
  last_error   TEXT,
  created_at   TEXT NOT NULL,
  updated_at   TEXT NOT NULL,
  UNIQUE (kind, subject_id)
);
CREATE INDEX jobs_due ON jobs(status, run_at);

CREATE TABLE chassis_maps (
  id            INTEGER PRIMARY KEY,
  public_id     TEXT NOT NULL UNIQUE,
  account_id    INTEGER NOT NULL REFERENCES accounts(id),
  asset_id      INTEGER NOT NULL REFERENCES assets(id),
  hardware_uid  TEXT NOT NULL,
  name          TEXT NOT NULL,
  bays          TEXT NOT NULL,
  created_at    TEXT NOT NULL,
  updated_at    TEXT NOT NULL,
  UNIQUE (account_id, hardware_uid)
);
