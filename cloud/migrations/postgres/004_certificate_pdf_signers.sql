-- The SQLite migration 010_certificate_pdf_signers on PostgreSQL (issue 20 item 4): the PDFs
-- are signed as PDF readers check them (PAdES), with an RSA key and an X.509 certificate per
-- deployment; the Ed25519 record stays for offline verify-pdf.

-- Every certificate that ever signed a PDF, never pruned, so a PDF signed before a rotation
-- still verifies with verify-pdf. certificate: base64 DER. private_key (base64 PKCS#8) is held
-- only by the generated signer that signs now; a CA-issued certificate from
-- CERTIFICATE_PDF_CERTIFICATE is recorded without its key, which stays in its file.
CREATE TABLE certificate_pdf_signers (
  fingerprint   TEXT PRIMARY KEY,
  certificate   TEXT NOT NULL,
  private_key   TEXT,
  added_at      TEXT NOT NULL,
  retired_at    TEXT,
  CHECK (retired_at IS NULL OR private_key IS NULL)
);

-- At most one stored signer signs (see certificate_signing_keys_current).
CREATE UNIQUE INDEX certificate_pdf_signers_current ON certificate_pdf_signers((1)) WHERE retired_at IS NULL AND private_key IS NOT NULL;
