import { migrate } from '../open.js';
import { SqliteDatabase } from '../../sql/sqlite.js';

const SANDBOX_MIGRATIONS_DIR = new URL('../../../../migrations/sandbox/', import.meta.url);

/**
 * Opens the sandbox's own SQLite file: the cloud's migrations first (the domain code runs on
 * the same tables), then the sandbox-only ones from `migrations/sandbox/`. A separate file keeps
 * integrators' experiments out of the real data, and a separate folder keeps sandbox tables out
 * of the real schema. The sandbox stays on SQLite, but reaches it through the store port like
 * the cloud does.
 */
export function openSandboxDatabase(path: string): SqliteDatabase {
  const db = SqliteDatabase.open(path);
  migrate(db.handle, SANDBOX_MIGRATIONS_DIR);
  return db;
}
