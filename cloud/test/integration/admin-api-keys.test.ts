import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/adapters/clock.js';
import type { SqlDatabase } from '../../src/adapters/sql/database.js';
import { PostgresDatabase } from '../../src/adapters/sql/postgres.js';
import { buildCloudApp } from '../../src/http/app.js';
import { openTestStore } from '../support/test-store.js';

const run = promisify(execFile);
const BIN = new URL('../../bin/erasure-cloud.js', import.meta.url).pathname;

describe('erasure-cloud admin mint-api-key / revoke-api-key (CONTRACT.md)', () => {
  let dir: string;
  /** The store under test, which the CLI opens too: DATA_DIR's SQLite file, or the PostgreSQL database DATABASE_URL names. */
  let db: SqlDatabase;
  let env: NodeJS.ProcessEnv;
  const cli = async (...args: string[]) => {
    const { stdout } = await run(process.execPath, [BIN, ...args, '--json'], { env });
    return JSON.parse(stdout);
  };
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'erasure-cli-keys-'));
    db = await openTestStore(dir);
    const { DATABASE_URL: _unset, ...rest } = process.env;
    env = { ...rest, DATA_DIR: dir, ...(db instanceof PostgresDatabase ? { DATABASE_URL: db.pool.options.connectionString } : {}) };
  });
  afterAll(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('mints a key shown once as {id, api_key}, and revokes it as {id, revoked_at} for the next request', async () => {
    const account = await cli('admin', 'create-account', '--name', 'Acme Refurb');
    const minted = await cli('admin', 'mint-api-key', '--account', String(account.numeric_id), '--name', 'ERP sync');
    expect(minted).toEqual({ id: expect.stringMatching(/^key_[0-9a-z]{20}$/), api_key: expect.stringMatching(/^ek_[\w-]{43}$/) });

    // The running server sees the CLI's writes: same store.
    const app = buildCloudApp({ db, clock: systemClock, internalApiSecret: undefined });
    try {
      const me = () => app.inject({ method: 'GET', url: '/api/v1/me', headers: { authorization: `Bearer ${minted.api_key}` } });
      expect((await me()).json()).toMatchObject({ account_id: account.id, api_key: { id: minted.id, name: 'ERP sync' }, user_email: null });
      const revoked = await cli('admin', 'revoke-api-key', '--id', minted.id);
      expect(revoked).toEqual({ id: minted.id, revoked_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) });
      const after = await me();
      expect(after.statusCode).toBe(401);
      expect(after.body).toBe('');
      // Revoking again keeps the first revocation time.
      expect(await cli('admin', 'revoke-api-key', '--id', minted.id)).toEqual(revoked);
    } finally {
      await app.close();
    }
  });

  it('refuses an unknown account or key on stderr with exit code 2', async () => {
    for (const args of [['mint-api-key', '--account', 'acct_nope'], ['revoke-api-key', '--id', 'key_nope'], ['revoke-api-key']]) {
      const failure = await run(process.execPath, [BIN, 'admin', ...args, '--json'], { env }).catch((e) => e);
      expect(failure.code).toBe(2);
      expect(failure.stdout).toBe('');
      expect(failure.stderr).toMatch(/not found|required/);
    }
  });
});
