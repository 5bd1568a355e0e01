import { migrate, openDatabase, type WritableDb } from '../open.js';

const SANDBOX_MIGRATIONS_DIR = new URL('../../../../migrations/sandbox/', import.meta.url);

/**
 * Opens the sandbox's own SQLite file: the cloud's migrations first (the domain code runs on
 * the same tables), then the sandbox-only ones from `migrations/sandbox/`. A separate file keeps
 * integrators' experiments out of the real data, and a separate folder keeps sandbox tables out
 * of the real schema.
 */
export function openSandboxDatabase(path: string): WritableDb {
  const db = openDatabase(path);
  migrate(db, SANDBOX_MIGRATIONS_DIR);
  return db;
}
