import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/adapters/db/accounts.js';
import { createToken, recordCheckin } from '../../src/adapters/db/tokens.js';
import type { SqlDatabase } from '../../src/adapters/sql/database.js';
import { PostgresDatabase } from '../../src/adapters/sql/postgres.js';
import { SqliteDatabase } from '../../src/adapters/sql/sqlite.js';
import { requireBuiltCloud } from '../certificates/processes.js';
import { freshPostgresUrl, TEST_STORE } from '../support/test-store.js';

const run = promisify(execFile);
const DIST = new URL('../../dist/', import.meta.url).href;
const PROCESSES = 4;
const PER_PROCESS = 5;

// Each child opens its own connection to the same store (a SQLite file, or a PostgreSQL database
// by its URL) and, from a common start instant,
// stores its results through the same repository function the HTTP route uses, each in its own
// transaction as a device write runs it.
const CHILD = `
const { SqliteDatabase } = await import(${JSON.stringify(`${DIST}adapters/sql/sqlite.js`)});
const { PostgresDatabase } = await import(${JSON.stringify(`${DIST}adapters/sql/postgres.js`)});
const { storeWipeResult } = await import(${JSON.stringify(`${DIST}adapters/db/wipe-results.js`)});
const [store, accountId, tokenId, tag, startAt, count] = process.argv.slice(1);
const db = store.startsWith('postgres') ? PostgresDatabase.open(store, { max: 2 }) : SqliteDatabase.open(store);
await db.one('SELECT 1 AS ready');
while (Date.now() < Number(startAt)) {}
for (let i = 0; i < Number(count); i++) {
  const record = { job_id: tag + '-' + i, drive_serial: tag + '-' + i, wipe_method: 'NIST 800-88 R2 Purge' };
  await db.transaction((tx) =>
    storeWipeResult(tx, { accountId: Number(accountId), tokenId: Number(tokenId), record, ownReason: null, issuedJobId: tag, notIssuedReason: 'not issued', now: new Date().toISOString() }),
  );
}
await db.close();
`;

describe('certificate numbers under concurrent writers in separate processes', () => {
  let dir: string;
  let store: string;
  let db: SqlDatabase;

  beforeAll(async () => {
    requireBuiltCloud();
    dir = mkdtempSync(join(tmpdir(), 'erasure-numbering-'));
    store = TEST_STORE === 'postgres' ? await freshPostgresUrl() : join(dir, 'cloud.sqlite');
    db = TEST_STORE === 'postgres' ? PostgresDatabase.open(store) : SqliteDatabase.open(store);
  });
  afterAll(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it(`${PROCESSES * PER_PROCESS} results from ${PROCESSES} processes at once get CW-000001..CW-0000${PROCESSES * PER_PROCESS}, gap-free`, async () => {
    const now = new Date().toISOString();
    const account = await createAccount(db, { name: 'Acme Refurb', subscriptionStatus: 'active', now });
    const token = await createToken(db, { accountId: account.id, product: 'engine', quotaLimit: null, userEmail: null, expiresAt: null, now });
    // Each process is one engine run: check-in `p<n>` issued the job_ids p<n>-0, p<n>-1, …
    for (let p = 0; p < PROCESSES; p++) await recordCheckin(db, `p${p}`, token, now);
    const startAt = String(Date.now() + 1500); // after every child has loaded and opened the store
    await Promise.all(
      Array.from({ length: PROCESSES }, (_, p) =>
        run(process.execPath, ['--input-type=module', '-e', CHILD, store, String(account.id), String(token.id), `p${p}`, startAt, String(PER_PROCESS)]),
      ),
    );
    const total = PROCESSES * PER_PROCESS;
    const count = async (sql: string) => (await db.one<{ n: number }>(sql))!.n;
    const numbers = await db.many<{ certificate_number: string }>(
      'SELECT certificate_number FROM certificates WHERE account_id = @account_id ORDER BY sequence',
      { account_id: account.id },
    );
    expect(numbers.map((r) => r.certificate_number)).toEqual(Array.from({ length: total }, (_, i) => `CW-${String(i + 1).padStart(6, '0')}`));
    expect(await count('SELECT count(DISTINCT wipe_result_id) AS n FROM certificates')).toBe(total);
    expect(await count(`SELECT count(*) AS n FROM jobs WHERE kind = 'certificate'`)).toBe(total);
    // Every process really wrote: the interleaving came from concurrent writers, not one.
    const writers = await count(`SELECT count(DISTINCT substr(job_id, 1, 2)) AS n FROM wipe_results`);
    expect(writers).toBe(PROCESSES);
  }, 60_000);
});
