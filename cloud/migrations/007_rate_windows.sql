-- Issue 11: rate-limit windows (sign-in failures per email+address and per address, public API
-- requests per key) live in the database, so they survive a restart and hold across processes.
-- One row per key and current window; `reset_at` is epoch milliseconds.
CREATE TABLE rate_windows (
  key       TEXT PRIMARY KEY,
  count     INTEGER NOT NULL CHECK (count >= 0),
  reset_at  INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX rate_windows_reset ON rate_windows(reset_at);
