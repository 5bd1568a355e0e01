import { join } from 'node:path';
import { inject } from 'vitest';
import pg from 'pg';
import type { SqlDatabase } from '../../src/adapters/sql/database.js';
import { PostgresDatabase } from '../../src/adapters/sql/postgres.js';
import { SqliteDatabase } from '../../src/adapters/sql/sqlite.js';

/**
 * Which store the cloud's tests run on: the same test code runs twice, once per store
 * (vitest projects `unit` and `cloud on postgres`, the latter with ERASURE_TEST_STORE=postgres).
 */
export const TEST_STORE: 'sqlite' | 'postgres' = process.env.ERASURE_TEST_STORE === 'postgres' ? 'postgres' : 'sqlite';

let databases = 0;

/** A fresh, migrated PostgreSQL database in the run's throwaway cluster; answers its URL. */
export async function freshPostgresUrl(): Promise<string> {
  const adminUrl = inject('postgresAdminUrl');
  if (!adminUrl) throw new Error('no PostgreSQL cluster: this test runs in the `cloud on postgres` project');
  const name = `t_${process.pid}_${Date.now().toString(36)}_${++databases}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}" TEMPLATE erasure_template`);
  } finally {
    await admin.end();
  }
  // The admin URL names the `postgres` database on a Unix socket (`postgresql://user@/postgres?host=…`).
  return adminUrl.replace('@/postgres?', `@/${name}?`);
}

/** A fresh, migrated store of the kind this run tests: a SQLite file in `dir`, or a new PostgreSQL database. */
export async function openTestStore(dir: string): Promise<SqlDatabase> {
  if (TEST_STORE === 'sqlite') return SqliteDatabase.open(join(dir, 'cloud.sqlite'));
  return PostgresDatabase.open(await freshPostgresUrl(), { max: 8 });
}

/**
 * One fresh store of this run's kind that each call of the answer opens anew: separate
 * connections (pools on PostgreSQL), as processes on different hosts sharing a database have.
 */
export async function sharedTestStore(dir: string): Promise<() => Promise<SqlDatabase>> {
  if (TEST_STORE === 'sqlite') {
    const path = join(dir, 'cloud.sqlite');
    return async () => SqliteDatabase.open(path);
  }
  const url = await freshPostgresUrl();
  return async () => PostgresDatabase.open(url, { max: 4 });
}
