-- The SQLite migration 023_wipes_grid_indexes on PostgreSQL (issue 31 item 1): the wipes grid's
-- filters, sorts and counts run in SQL over an account's whole history.
-- A stored timestamp (ISO 8601 with a zone, as the wire carries it) as UTC text with
-- milliseconds, the form toISOString gives and SQLite's strftime writes; null when it names no
-- real time (2026-02-30) instead of failing the query. Immutable: the text carries its zone, so
-- the session's TimeZone never matters, and the expression can be indexed. Parallel unsafe: its
-- EXCEPTION block is a subtransaction, which no process may start while a parallel operation is
-- under way, the leader included (a parallel index build or scan over a long history would fail).
CREATE FUNCTION erasure_utc(value text) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL UNSAFE AS $$
BEGIN
  IF value !~ '(Z|[+-]\d{2}(:?\d{2})?)$' THEN
    RETURN NULL;
  END IF;
  RETURN to_char(value::timestamptz AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
EXCEPTION WHEN others THEN
  RETURN NULL;
END
$$;
CREATE INDEX wipe_results_account_completed ON wipe_results(account_id, erasure_utc(completed_at) DESC NULLS LAST, created_at DESC, id DESC);
CREATE INDEX wipe_results_account_updated ON wipe_results(account_id, updated_at DESC, id DESC);
CREATE INDEX wipe_results_account_method ON wipe_results(account_id, wipe_method);
CREATE INDEX wipe_results_token ON wipe_results(token_id);
