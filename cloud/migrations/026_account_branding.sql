-- Issue 31 item 7: an account's own branding on its certificates, set by its admins in the web
-- app. Company details as typed (address_lines: JSON list of up to three lines); the logo's bytes
-- live in the object store under logo_key (PNG or JPEG, checked on upload), its type and SHA-256
-- here. No row: the product's header. Not part of any signed record.
CREATE TABLE account_brandings (
  account_id          INTEGER PRIMARY KEY REFERENCES accounts(id),
  company_name        TEXT,
  address_lines       TEXT NOT NULL DEFAULT '[]',
  contact             TEXT,
  logo_key            TEXT,
  logo_type           TEXT CHECK (logo_type IN ('png', 'jpeg')),
  logo_sha256         TEXT,
  updated_by_user_id  INTEGER REFERENCES users(id),
  updated_at          TEXT NOT NULL
);
