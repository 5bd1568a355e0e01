-- Issue 28 item 6: the HMAC signatures of /internal/* calls already accepted, kept until their
-- timestamp leaves the 300 s window, so an exact replay is refused by every process and instance.
-- `expires_at` is epoch milliseconds; rows past it are swept.
CREATE TABLE internal_signatures_seen (
  signature   TEXT PRIMARY KEY,
  expires_at  INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX internal_signatures_seen_expires ON internal_signatures_seen(expires_at);
