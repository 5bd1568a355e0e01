import { readdirSync, readFileSync } from 'node:fs';
import { migrate as migrateSqlite } from '../db/open.js';
import { rollback, withClient, type PostgresDatabase } from './postgres.js';
import type { SqliteDatabase } from './sqlite.js';

/** SQLite's series is `migrations/NNN_*.sql`; PostgreSQL's is `migrations/postgres/NNN_*.sql`. */
export const POSTGRES_MIGRATIONS_DIR = new URL('../../../migrations/postgres/', import.meta.url);

const MIGRATION_FILE = /^\d{3}_[\w-]+\.sql$/;

/**
 * Applies every PostgreSQL migration not yet recorded, each in its own transaction under one
 * advisory lock, so instances and workers starting together apply each file exactly once.
 */
export async function migratePostgres(db: PostgresDatabase, dir: URL = POSTGRES_MIGRATIONS_DIR): Promise<string[]> {
  const files = readdirSync(dir).filter((f) => MIGRATION_FILE.test(f)).sort();
  const ran: string[] = [];
  await withClient(db.pool, async (client, discard) => {
    for (const file of files) {
      await client.query('BEGIN');
      try {
        await client.query(`SELECT pg_advisory_xact_lock(hashtext('erasure-cloud migrations'))`);
        await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (version TEXT PRIMARY KEY, applied_at TEXT NOT NULL)');
        const done = await client.query('SELECT 1 FROM schema_migrations WHERE version = $1', [file]);
        if (done.rowCount === 0) {
          // A file without parameters goes as one simple query, so it may hold many statements.
          await client.query(readFileSync(new URL(file, dir), 'utf8'));
          await client.query('INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)', [file, new Date().toISOString()]);
          ran.push(file);
        }
        await client.query('COMMIT');
      } catch (error) {
        await rollback(client, discard);
        throw error;
      }
    }
  });
  return ran;
}

/** Runs the pending migrations of whichever store this is; answers the files applied. */
export async function migrateStore(db: SqliteDatabase | PostgresDatabase): Promise<string[]> {
  return db.dialect === 'sqlite' ? migrateSqlite(db.handle) : migratePostgres(db);
}
