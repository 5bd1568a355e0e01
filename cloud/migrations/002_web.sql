-- The web application and the public API: sessions, API keys, the wipes grid's push
-- integration, and the drive-serial lookup that links a wiped drive to its machine.

-- A signed-in browser. Only the SHA-256 of the cookie value is stored, so a copy of the
-- database cannot be replayed as a session; csrf_token is the per-session synchronizer token.
CREATE TABLE sessions (
  id            INTEGER PRIMARY KEY,
  token_hash    TEXT NOT NULL UNIQUE,
  user_id       INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  csrf_token    TEXT NOT NULL,
  created_at    TEXT NOT NULL,
  expires_at    TEXT NOT NULL,
  ended_at      TEXT
);
CREATE INDEX sessions_user ON sessions(user_id);
CREATE INDEX sessions_expires ON sessions(expires_at);

-- Public API keys (spec 5.3): shown once at minting, stored as SHA-256 of the key. Keys are
-- 256 random bits, so a fast hash is enough (no password stretching needed).
CREATE TABLE api_keys (
  id                  INTEGER PRIMARY KEY,
  public_id           TEXT NOT NULL UNIQUE,
  account_id          INTEGER NOT NULL REFERENCES accounts(id),
  name                TEXT NOT NULL,
  key_hash            TEXT NOT NULL UNIQUE,
  -- The first characters of the key, so a person can tell keys apart without the secret.
  key_prefix          TEXT NOT NULL,
  created_by_user_id  INTEGER REFERENCES users(id),
  created_at          TEXT NOT NULL,
  last_used_at        TEXT,
  revoked_at          TEXT
);
CREATE INDEX api_keys_account ON api_keys(account_id, created_at DESC);

-- Where the wipes grid's Push action sends selected rows: one generic signed HTTP endpoint
-- per account. The secret is kept in clear because the cloud must sign with it.
CREATE TABLE push_integrations (
  account_id  INTEGER PRIMARY KEY REFERENCES accounts(id),
  url         TEXT NOT NULL,
  secret      TEXT NOT NULL,
  created_at  TEXT NOT NULL,
  updated_at  TEXT NOT NULL
);

-- The public API's exact `serial` filter.
CREATE INDEX assets_account_serial ON assets(account_id, serial_number);

-- One row per internal drive of each asset, derived from the asset's fingerprint and limited
-- to the serials in its storage_serials column: the wipes grid matches a wiped drive to its
-- machine (Source) and reads its media type through an index instead of scanning every
-- asset's serial list. Triggers keep it in step with every writer of `assets`.
CREATE TABLE asset_drives (
  account_id  INTEGER NOT NULL,
  serial      TEXT NOT NULL,
  asset_id    INTEGER NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
  media_type  TEXT,
  PRIMARY KEY (account_id, serial, asset_id)
) WITHOUT ROWID;
CREATE INDEX asset_drives_asset ON asset_drives(asset_id);

CREATE TRIGGER asset_drives_after_insert AFTER INSERT ON assets BEGIN
  INSERT OR IGNORE INTO asset_drives (account_id, serial, asset_id, media_type)
  SELECT NEW.account_id, trim(json_extract(d.value, '$.serial')), NEW.id, json_extract(d.value, '$.media_type')
    FROM json_each(NEW.fingerprint, '$.storage') d
   WHERE json_type(NEW.fingerprint, '$.storage') = 'array'
     AND json_type(d.value, '$.serial') = 'text'
     AND instr(', ' || NEW.storage_serials || ', ', ', ' || trim(json_extract(d.value, '$.serial')) || ', ') > 0;
END;

CREATE TRIGGER asset_drives_after_update AFTER UPDATE OF fingerprint, storage_serials ON assets BEGIN
  DELETE FROM asset_drives WHERE asset_id = NEW.id;
  INSERT OR IGNORE INTO asset_drives (account_id, serial, asset_id, media_type)
  SELECT NEW.account_id, trim(json_extract(d.value, '$.serial')), NEW.id, json_extract(d.value, '$.media_type')
    FROM json_each(NEW.fingerprint, '$.storage') d
   WHERE json_type(NEW.fingerprint, '$.storage') = 'array'
     AND json_type(d.value, '$.serial') = 'text'
     AND instr(', ' || NEW.storage_serials || ', ', ', ' || trim(json_extract(d.value, '$.serial')) || ', ') > 0;
END;

-- Assets stored before this migration.
INSERT OR IGNORE INTO asset_drives (account_id, serial, asset_id, media_type)
SELECT a.account_id, trim(json_extract(d.value, '$.serial')), a.id, json_extract(d.value, '$.media_type')
  FROM assets a, json_each(a.fingerprint, '$.storage') d
 WHERE json_type(a.fingerprint, '$.storage') = 'array'
   AND json_type(d.value, '$.serial') = 'text'
   AND instr(', ' || a.storage_serials || ', ', ', ' || trim(json_extract(d.value, '$.serial')) || ', ') > 0;
