-- Issue: keys shared by every host. The certificate keys lived in files under DATA_DIR/keys, so
-- two hosts on one database signed with different keys and refused each other's presigned URLs.
-- They live in the database now (adapters/certificate-keys.ts), imported once from those files.

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
