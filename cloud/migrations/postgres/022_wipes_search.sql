-- The SQLite migration 029_wipes_search on PostgreSQL: the wipes grid's text search `q` (a part
-- of the model, serial, asset tag, customer, lot or certificate number, any case) by trigram
-- index instead of an ILIKE over every wipe of the account. pg_trgm's GIN indexes answer
-- ILIKE '%term%' for a term of three characters or more; a shorter term has no trigram and the
-- grid's query falls back to the scan for it (adapters/db/wipes-filter-sql.ts).
-- pg_trgm ships in PostgreSQL's contrib (Debian: postgresql-<version>, the extension files under
-- /usr/share/postgresql/<version>/extension) and is a trusted extension: the database's owner
-- may create it. Without it the cloud cannot search, so it refuses to start, saying why.
DO $$
BEGIN
  CREATE EXTENSION IF NOT EXISTS pg_trgm;
EXCEPTION WHEN others THEN
  RAISE EXCEPTION 'migration 022_wipes_search: the PostgreSQL extension pg_trgm cannot be created in this database (%): the wipes search needs it', SQLERRM
    USING HINT = 'Install PostgreSQL''s contrib extensions on the database server (pg_trgm.control under its share/extension directory), or have a superuser run CREATE EXTENSION pg_trgm in this database, then start the cloud again.';
END
$$;

-- The wipe's own searchable fields as one text, so one index answers them all. The unit
-- separator (U+001F) keeps a term from matching across two fields in practice; the grid's query
-- keeps its per-field ILIKE beside the index condition, so the answer is exact either way.
-- Immutable (plain text operations), so it can be indexed; LANGUAGE sql so the planner inlines it
-- and matches the index expression. Keep in step with wipes-filter-sql.ts (searchTextOf).
CREATE FUNCTION wipe_search_text(drive_model text, drive_serial text, asset_tag text, customer text, lot_reference text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(drive_model, '') || E'\x1f' || coalesce(drive_serial, '') || E'\x1f' || coalesce(asset_tag, '')
    || E'\x1f' || coalesce(customer, '') || E'\x1f' || coalesce(lot_reference, '')
$$;

CREATE INDEX wipe_results_search ON wipe_results USING gin (wipe_search_text(drive_model, drive_serial, asset_tag, customer, lot_reference) gin_trgm_ops);
CREATE INDEX certificates_number_search ON certificates USING gin (certificate_number gin_trgm_ops);
