-- The SQLite migration 013_internal_signatures on PostgreSQL: the HMAC signatures of /internal/*
-- calls already accepted, kept until their timestamp leaves the 300 s window (issue 28 item 6).
CREATE TABLE internal_signatures_seen (
  signature   TEXT PRIMARY KEY,
  expires_at  BIGINT NOT NULL
);
CREATE INDEX internal_signatures_seen_expires ON internal_signatures_seen(expires_at);
