-- The SQLite migration 026_account_branding on PostgreSQL (issue 31 item 7): an account's company
-- details and the object-store key, type and SHA-256 of its logo. No row: the product's header.
CREATE TABLE account_brandings (
  account_id          BIGINT PRIMARY KEY REFERENCES accounts(id),
  company_name        TEXT,
  address_lines       TEXT NOT NULL DEFAULT '[]',
  contact             TEXT,
  logo_key            TEXT,
  logo_type           TEXT CHECK (logo_type IN ('png', 'jpeg')),
  logo_sha256         TEXT,
  updated_by_user_id  BIGINT REFERENCES users(id),
  updated_at          TEXT NOT NULL
);
