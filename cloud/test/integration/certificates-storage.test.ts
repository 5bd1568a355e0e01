import { mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/adapters/db/accounts.js';
import { createCertificate } from '../../src/adapters/db/certificates.js';
import { InvalidObjectKeyError, localObjectStore } from '../../src/adapters/objects/local-store.js';
import { isCheckViolation, isUniqueViolation } from '../../src/adapters/sql/errors.js';
import type { SqlDatabase } from '../../src/adapters/sql/database.js';
import { openTestStore, TEST_STORE } from '../support/test-store.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'erasure-cert-store-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('local object store (${DATA_DIR}/objects)', () => {
  it('puts, gets and overwrites by key, leaving no temporary files behind', async () => {
    const sut = localObjectStore(join(dir, 'objects'));
    expect(await sut.exists('certificates/a/b/CW-000001.pdf')).toBe(false);
    expect(await sut.get('certificates/a/b/CW-000001.pdf')).toBeUndefined();
    await sut.put('certificates/a/b/CW-000001.pdf', new TextEncoder().encode('first'));
    await sut.put('certificates/a/b/CW-000001.pdf', new TextEncoder().encode('second'));
    expect(new TextDecoder().decode(await sut.get('certificates/a/b/CW-000001.pdf'))).toBe('second');
    expect(await sut.exists('certificates/a/b/CW-000001.pdf')).toBe(true);
    expect(readdirSync(join(dir, 'objects', '.tmp'))).toEqual([]);
    expect(statSync(join(dir, 'objects', 'certificates/a/b/CW-000001.pdf')).mode & 0o777).toBe(0o600);
  });

  it.each(['../escape.pdf', 'a/../../b', '/etc/passwd', '.tmp/x', 'a//b', 'a/b/', '', 'a\\b', 'a/.hidden'])(
    'refuses the key %j',
    async (key) => {
      const sut = localObjectStore(join(dir, 'objects'));
      await expect(sut.put(key, new Uint8Array(1))).rejects.toBeInstanceOf(InvalidObjectKeyError);
      await expect(sut.get(key)).rejects.toBeInstanceOf(InvalidObjectKeyError);
    },
  );

  it('sweeps only stale temporary files, the leftovers of a crashed put', async () => {
    const sut = localObjectStore(join(dir, 'objects'));
    await sut.put('k/one.pdf', new Uint8Array([1]));
    const stale = join(dir, 'objects', '.tmp', 'crashed.part');
    const fresh = join(dir, 'objects', '.tmp', 'inflight.part');
    writeFileSync(stale, 'x');
    writeFileSync(fresh, 'y');
    const hourAgo = (Date.now() - 3_600_000) / 1000;
    utimesSync(stale, hourAgo, hourAgo);
    expect(await sut.sweepTemporary(600_000)).toBe(1);
    expect(readdirSync(join(dir, 'objects', '.tmp'))).toEqual(['inflight.part']);
    expect(await sut.exists('k/one.pdf')).toBe(true);
  });
});

/** An account with one active engine token: what a wipe result row refers to. */
async function seedAccountAndToken(db: SqlDatabase, now: string) {
  const account = await createAccount(db, { name: 'Acme', subscriptionStatus: 'active', now });
  const token = (await db.one<{ id: number }>(
    `INSERT INTO license_tokens (prefix_id, jti, account_id, product, status, created_at, updated_at)
     VALUES ('ltok_1', 'j1', @account_id, 'engine', 'active', @now, @now) RETURNING id`,
    { account_id: account.id, now },
  ))!;
  return { account, token };
}

// SQLite's migration 003_certificates, or the PostgreSQL schema's same tables (run on either store).
describe('migration 003_certificates', () => {
  it('creates certificates and certificate_sequences with their uniqueness and status rules', async () => {
    const db = await openTestStore(dir);
    try {
      const now = new Date().toISOString();
      const { account, token } = await seedAccountAndToken(db, now);
      const wipe = async (job: string) =>
        (await db.one<{ id: number }>(
          `INSERT INTO wipe_results (public_id, account_id, token_id, job_id, certifiable, created_at, updated_at)
           VALUES (@public_id, @account_id, @token_id, @job_id, 1, @now, @now) RETURNING id`,
          { public_id: `wr_${job}`, account_id: account.id, token_id: token.id, job_id: job, now },
        ))!.id;
      const w1 = await wipe('a');
      // Inside a transaction, as its callers run it (the one that stores the wipe result).
      const first = await db.transaction((tx) => createCertificate(tx, { accountId: account.id, wipeResultId: w1, now }));
      expect(await db.transaction((tx) => createCertificate(tx, { accountId: account.id, wipeResultId: w1, now }))).toEqual(first); // idempotent per wipe result
      const w2 = await wipe('b');
      await expect(
        db.run(
          `INSERT INTO certificates (public_id, account_id, wipe_result_id, sequence, certificate_number, created_at, updated_at)
           VALUES ('cert_x', @account_id, @wipe_result_id, 1, 'CW-000001', @now, @now)`,
          { account_id: account.id, wipe_result_id: w2, now },
        ),
      ).rejects.toSatisfy(isUniqueViolation);
      await expect(db.run(`UPDATE certificates SET status = 'done'`)).rejects.toSatisfy(isCheckViolation);
      // PostgreSQL's schema is one file, 001_schema.sql, holding what SQLite's 001-008 hold.
      const version = TEST_STORE === 'sqlite' ? '003_certificates.sql' : '001_schema.sql';
      expect(await db.one('SELECT version FROM schema_migrations WHERE version = @version', { version })).toEqual({ version });
    } finally {
      await db.close();
    }
  });
});

describe('certificate numbering in concurrent transactions (either store)', () => {
  it('numbers committed issuances gap-free: a rolled-back one gives its number back, concurrent ones wait on the counter row', async () => {
    const db = await openTestStore(dir);
    try {
      const now = new Date().toISOString();
      const { account, token } = await seedAccountAndToken(db, now);
      // Each issuance stores its wipe result and takes a number in one transaction; every third
      // one then fails, as a device write that broke after numbering would, and rolls back.
      const issue = (i: number) =>
        db.transaction(async (tx) => {
          const { id } = (await tx.one<{ id: number }>(
            `INSERT INTO wipe_results (public_id, account_id, token_id, job_id, certifiable, created_at, updated_at)
             VALUES (@public_id, @account_id, @token_id, @job_id, 1, @now, @now) RETURNING id`,
            { public_id: `wr_${i}`, account_id: account.id, token_id: token.id, job_id: `job-${i}`, now },
          ))!;
          const cert = await createCertificate(tx, { accountId: account.id, wipeResultId: id, now });
          if (i % 3 === 0) throw new Error(`issuance ${i} broke after numbering`);
          return cert.certificate_number;
        });
      const outcomes = await Promise.allSettled(Array.from({ length: 24 }, (_, i) => issue(i)));
      expect(outcomes.filter((o) => o.status === 'rejected')).toHaveLength(8);
      const numbers = (await db.many<{ certificate_number: string }>('SELECT certificate_number FROM certificates ORDER BY sequence')).map(
        (r) => r.certificate_number,
      );
      expect(numbers).toEqual(Array.from({ length: 16 }, (_, i) => `CW-${String(i + 1).padStart(6, '0')}`));
      expect((await db.one<{ last_value: number }>('SELECT last_value FROM certificate_sequences'))!.last_value).toBe(16);
    } finally {
      await db.close();
    }
  });
});
