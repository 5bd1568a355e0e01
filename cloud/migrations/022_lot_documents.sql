-- Issue 31 item 3: a lot certificate, one signed PDF over a lot's certificates, has a public
-- verify page like a single certificate. One row per document made: what it covers (`summary`,
-- JSON: customers, lots, date range, counts) and its drives in order (`drives`, JSON: certificate
-- id and number, serial, model, result), and the SHA-256 of the PDF that was served.
CREATE TABLE lot_documents (
  id               INTEGER PRIMARY KEY,
  public_id        TEXT NOT NULL UNIQUE,
  account_id       INTEGER NOT NULL REFERENCES accounts(id),
  summary          TEXT NOT NULL,
  drives           TEXT NOT NULL,
  document_sha256  TEXT NOT NULL,
  created_at       TEXT NOT NULL
);
CREATE INDEX lot_documents_account ON lot_documents(account_id, created_at);
