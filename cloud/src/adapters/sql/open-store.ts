import { join } from 'node:path';
import type { SqlDatabase } from './database.js';
import { migrateStore } from './migrations.js';
import { PostgresDatabase } from './postgres.js';
import { SqliteDatabase } from './sqlite.js';

/** Which store the cloud uses: PostgreSQL when `DATABASE_URL` names one, else SQLite in DATA_DIR. */
export type StoreConfig = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };

export function storeConfig(env: NodeJS.ProcessEnv, dataDir: string): StoreConfig {
  const url = env.DATABASE_URL?.trim();
  if (!url) return { kind: 'sqlite', path: join(dataDir, 'cloud.sqlite') };
  if (!/^postgres(ql)?:\/\//.test(url)) throw new Error('DATABASE_URL must be a postgres:// or postgresql:// URL');
  return { kind: 'postgres', url };
}

/** Opens the configured store and brings its schema up to date. */
export async function openStore(config: StoreConfig): Promise<SqlDatabase & { dialect: StoreConfig['kind'] }> {
  const db = config.kind === 'sqlite' ? SqliteDatabase.open(config.path) : PostgresDatabase.open(config.url);
  await migrateStore(db);
  return db;
}
