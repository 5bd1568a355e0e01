-- Issue 31 item 2: a lot ZIP or lot certificate too big for one request is made by a background
-- job (kind 'lot_export' in `jobs`, subject = this row). The selection is fixed when the export
-- is asked for (`wipe_ids`, JSON, the grid's order), so its progress (`done` of `total`) counts
-- a known set. Once made, the file is the object at `object_key` until `expires_at`.
CREATE TABLE lot_exports (
  id               INTEGER PRIMARY KEY,
  public_id        TEXT NOT NULL UNIQUE,
  account_id       INTEGER NOT NULL REFERENCES accounts(id),
  format           TEXT NOT NULL CHECK (format IN ('zip', 'pdf')),
  wipe_ids         TEXT NOT NULL,
  status           TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'running', 'done', 'failed')),
  done             INTEGER NOT NULL DEFAULT 0,
  total            INTEGER NOT NULL,
  object_key       TEXT,
  lot_document_id  TEXT,
  error            TEXT,
  expires_at       TEXT,
  created_at       TEXT NOT NULL,
  updated_at       TEXT NOT NULL
);
CREATE INDEX lot_exports_account ON lot_exports(account_id, created_at);
