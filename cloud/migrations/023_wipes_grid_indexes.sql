-- The wipes grid on the server (issue 31 item 1): its filters, sorts and counts run in SQL over an
-- account's whole history, and the public API syncs wipes by updated_at.
-- Completed, as UTC text with milliseconds: the grid's default order and its date range. The
-- expression is the one adapters/db/wipes-filter-sql.ts utcOf writes (keep them in step): the
-- wire allows `+0100` as well as `+01:00`, and SQLite reads only the latter.
CREATE INDEX wipe_results_account_completed ON wipe_results(
  account_id,
  strftime('%Y-%m-%dT%H:%M:%fZ', CASE WHEN completed_at GLOB '*[+-][0-9][0-9][0-9][0-9]' THEN substr(completed_at, 1, length(completed_at) - 2) || ':' || substr(completed_at, -2) ELSE completed_at END) DESC,
  created_at DESC,
  id DESC
);
-- GET /api/v1/wipes: last change first, and `since`.
CREATE INDEX wipe_results_account_updated ON wipe_results(account_id, updated_at DESC, id DESC);
-- The method filter and the list of methods it offers.
CREATE INDEX wipe_results_account_method ON wipe_results(account_id, wipe_method);
-- The customer and lot filters start from the account's tokens that name them.
CREATE INDEX wipe_results_token ON wipe_results(token_id);
