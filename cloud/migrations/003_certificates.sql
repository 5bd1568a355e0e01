-- Certificates of Sanitization (spec 2 "Certificate", 3 "Certificate status", 4.4).

-- One counter per account. The certificate number is taken with an upsert … RETURNING in the
-- same transaction that inserts the certificate, so numbers are gap-free and never reused even
-- under concurrent wipe results: a rolled-back insert rolls its increment back with it.
CREATE TABLE certificate_sequences (
  account_id  INTEGER PRIMARY KEY REFERENCES accounts(id),
  last_value  INTEGER NOT NULL CHECK (last_value >= 1)
);

-- One row per certified wipe result, created on its first receipt (status pending). content,
-- signature and signed_at are written once, when the worker first signs; every retry renders
-- the same bytes from them. Hashes and object keys are set only after both PDFs are durable.
CREATE TABLE certificates (
  id                  INTEGER PRIMARY KEY,
  public_id           TEXT NOT NULL UNIQUE,
  account_id          INTEGER NOT NULL REFERENCES accounts(id),
  wipe_result_id      INTEGER NOT NULL UNIQUE REFERENCES wipe_results(id),
  sequence            INTEGER NOT NULL CHECK (sequence >= 1),
  certificate_number  TEXT NOT NULL,
  status              TEXT NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'generating', 'complete', 'failed')),
  -- Canonical JSON of the signed CertificateContent, exactly the bytes the signature covers.
  content             TEXT,
  -- Base64 Ed25519 signature over content.
  signature           TEXT,
  signed_at           TEXT,
  certificate_key     TEXT,
  certificate_sha256  TEXT,
  report_key          TEXT,
  report_sha256       TEXT,
  generated_at        TEXT,
  last_error          TEXT,
  created_at          TEXT NOT NULL,
  updated_at          TEXT NOT NULL,
  UNIQUE (account_id, sequence),
  UNIQUE (account_id, certificate_number)
);
