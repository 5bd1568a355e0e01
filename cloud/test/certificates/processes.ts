import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createAccount } from '../../src/adapters/db/accounts.js';
import { createToken, recordCheckin } from '../../src/adapters/db/tokens.js';
import { storeWipeResult } from '../../src/adapters/db/wipe-results.js';
import type { SqlDatabase } from '../../src/adapters/sql/database.js';
import { PostgresDatabase } from '../../src/adapters/sql/postgres.js';
import { SqliteDatabase } from '../../src/adapters/sql/sqlite.js';
import { freshPostgresUrl, TEST_STORE } from '../support/test-store.js';
import { wipeBody } from './pipeline.js';

/** The real binary; it runs `cloud/dist`, which the suite's global setup builds. */
export const BIN = new URL('../../bin/erasure-cloud.js', import.meta.url).pathname;

/** Fails with the fix when `dist` is missing, instead of a confusing import error in a child. */
export function requireBuiltCloud(): void {
  if (!existsSync(new URL('../../dist/main.js', import.meta.url))) {
    throw new Error('cloud/dist is missing: run `npx tsc -b` (the full suite builds it in global setup)');
  }
}

/** A running `erasure-cloud …` child with its output collected. */
export interface Child {
  process: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (or signal name) once the process has ended. */
  exited: Promise<number | string>;
}

export function startCli(args: string[], env: Record<string, string>): Child {
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | string>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  return { process: child, stdout: () => out, stderr: () => err, exited };
}

/** Polls `check` (sync or async) every `everyMs` until it gives a value other than undefined/false. */
export async function waitFor<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs: number,
  everyMs = 5,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

/** Every object key under a local store root, leftovers of interrupted puts (`.tmp`) excluded. */
export function listObjects(root: string): string[] {
  if (!existsSync(root)) return [];
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === '.tmp') continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else out.push(relative(root, path));
    }
  };
  walk(root);
  return out.sort();
}

/**
 * The store the crash tests' workers share with the test: this run's PostgreSQL database when the
 * suite runs on PostgreSQL (its URL goes into the workers' DATABASE_URL), else DATA_DIR's SQLite file.
 */
export async function workerStore(dir: string): Promise<{ db: SqlDatabase; databaseUrl: string | undefined }> {
  const databaseUrl = TEST_STORE === 'postgres' ? await freshPostgresUrl() : undefined;
  return { db: databaseUrl ? PostgresDatabase.open(databaseUrl) : SqliteDatabase.open(join(dir, 'cloud.sqlite')), databaseUrl };
}

/**
 * `count` passing wipe results of one engine check-in (jobs `job-0`, `job-1`, …, drives `SER-0`,
 * …), stored as the wipe result route stores them: each one's certificate job is due.
 */
export async function storeDueCertificates(db: SqlDatabase, count: number): Promise<void> {
  const now = new Date().toISOString();
  const account = await createAccount(db, { name: 'Acme Refurb', subscriptionStatus: 'active', now });
  const token = await createToken(db, { accountId: account.id, product: 'engine', quotaLimit: null, userEmail: 'ana@acme.test', expiresAt: null, now });
  await recordCheckin(db, 'job', token, now);
  for (let i = 0; i < count; i++) {
    const { jti: _jti, ...record } = wipeBody(token.jti, `job-${i}`, { drive_serial: `SER-${i}`, passes_completed: 1 });
    await db.transaction((tx) => storeWipeResult(tx, { accountId: account.id, tokenId: token.id, record, ownReason: null, issuedJobId: 'job', notIssuedReason: 'not issued', now }));
  }
}
