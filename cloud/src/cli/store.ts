import { resolve } from 'node:path';
import type { CloudConfig } from '../config.js';
import { openConnection } from '../adapters/db/open.js';
import { copySqliteToPostgres } from '../adapters/sql/copy-to-postgres.js';
import { migrateStore } from '../adapters/sql/migrations.js';
import { storeConfig } from '../adapters/sql/open-store.js';
import { PostgresDatabase } from '../adapters/sql/postgres.js';
import { SqliteDatabase } from '../adapters/sql/sqlite.js';
import { UsageError } from './admin.js';

/**
 * `erasure-cloud migrate`: applies the pending migrations of the configured store (PostgreSQL
 * when DATABASE_URL is set, else the SQLite file in DATA_DIR) and names what it applied.
 */
export async function migrateCommand(env: NodeJS.ProcessEnv, config: CloudConfig): Promise<{ store: 'sqlite' | 'postgres'; applied: string[] }> {
  const store = storeConfig(env, config.DATA_DIR);
  const db = store.kind === 'sqlite' ? new SqliteDatabase(openConnection(store.path)) : PostgresDatabase.open(store.url, { max: 1 });
  try {
    return { store: store.kind, applied: await migrateStore(db) };
  } finally {
    await db.close();
  }
}

/**
 * `erasure-cloud copy-to-postgres --from FILE`: copies an SQLite cloud database into the empty
 * PostgreSQL database DATABASE_URL names, in one transaction (see copySqliteToPostgres).
 */
export async function copyToPostgresCommand(
  env: NodeJS.ProcessEnv,
  config: CloudConfig,
  flags: Record<string, string | boolean>,
): Promise<{ from: string; tables: Record<string, number> }> {
  const store = storeConfig(env, config.DATA_DIR);
  if (store.kind !== 'postgres') throw new UsageError('copy-to-postgres needs DATABASE_URL=postgres://… naming the target database');
  const from = resolve(typeof flags.from === 'string' ? flags.from : `${config.DATA_DIR}/cloud.sqlite`);
  const target = PostgresDatabase.open(store.url, { max: 1 });
  try {
    return { from, tables: await copySqliteToPostgres(from, target) };
  } finally {
    await target.close();
  }
}
