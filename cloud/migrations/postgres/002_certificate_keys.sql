-- The SQLite migration 009_certificate_keys on PostgreSQL: the certificate keys every host on
-- this database shares (they lived in files under each host's DATA_DIR/keys before).

-- Secrets every process of a deployment shares, by name: today the HMAC key of presigned
-- `/files/…` URLs ('url-signing-secret', hex). Written once, never changed.
CREATE TABLE deployment_secrets (
  name        TEXT PRIMARY KEY,
  value       TEXT NOT NULL,
  created_at  TEXT NOT NULL
);

-- Every Ed25519 key that ever signed a certificate, never pruned, so a certificate signed before
-- a rotation still verifies. private_seed (base64 raw seed) is held only by the current generated
-- key: a key from CERTIFICATE_SIGNING_KEY is recorded by its public half, and rotation drops the
-- seed of the key it retires.
CREATE TABLE certificate_signing_keys (
  key_id        TEXT PRIMARY KEY,
  public_key    TEXT NOT NULL,
  private_seed  TEXT,
  added_at      TEXT NOT NULL,
  retired_at    TEXT,
  CHECK (retired_at IS NULL OR private_seed IS NULL)
);

-- At most one stored key signs: processes creating the first key together insert with
-- ON CONFLICT DO NOTHING against this index and all read back the one that won.
CREATE UNIQUE INDEX certificate_signing_keys_current ON certificate_signing_keys((1)) WHERE retired_at IS NULL AND private_seed IS NOT NULL;
