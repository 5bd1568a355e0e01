import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devicePublicKey, verifyDeviceToken } from '@erasure/shared';
import { systemClock } from '../../src/adapters/clock.js';
import { PostgresDatabase } from '../../src/adapters/sql/postgres.js';
import { SqliteDatabase } from '../../src/adapters/sql/sqlite.js';
import { buildCloudApp } from '../../src/http/app.js';
import { freshPostgresUrl, TEST_STORE } from '../support/test-store.js';
import { freshSigner } from '../support/fresh-signer.js';

const run = promisify(execFile);
const BIN = new URL('../../bin/erasure-cloud.js', import.meta.url).pathname;

describe('erasure-cloud keygen and admin (CONTRACT.md)', () => {
  let dir: string;
  /** The store the commands run on: DATA_DIR's SQLite file, or DATABASE_URL's PostgreSQL database. */
  let databaseUrl: string | undefined;
  let keys: { device_token_private_key: string; device_token_pubkey: string; internal_api_secret: string };
  const env = () => ({ ...process.env, DATA_DIR: dir, DEVICE_TOKEN_PRIVATE_KEY: keys.device_token_private_key, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) });
  const cli = async (...args: string[]) => {
    const { stdout } = await run(process.execPath, [BIN, ...args, '--json'], { env: env() });
    return JSON.parse(stdout);
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'erasure-cli-'));
    if (TEST_STORE === 'postgres') databaseUrl = await freshPostgresUrl();
    const { stdout } = await run(process.execPath, [BIN, 'keygen', '--json']);
    keys = JSON.parse(stdout);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keygen prints fresh base64 32-byte keys and a secret as one JSON document', async () => {
    expect(Buffer.from(keys.device_token_private_key, 'base64')).toHaveLength(32);
    expect(Buffer.from(keys.device_token_pubkey, 'base64')).toHaveLength(32);
    expect(keys.internal_api_secret).toMatch(/^[0-9a-f]{64}$/);
    const again = JSON.parse((await run(process.execPath, [BIN, 'keygen', '--json'])).stdout);
    expect(again.device_token_private_key).not.toBe(keys.device_token_private_key);
  });

  it('create-account, set-account-active, create-user, mint-device-token, set-token-status', async () => {
    const account = await cli('admin', 'create-account', '--name', 'Acme Refurb', '--inactive');
    expect(account).toMatchObject({ id: expect.stringMatching(/^acct_/), numeric_id: expect.any(Number), name: 'Acme Refurb', active: false });

    const active = await cli('admin', 'set-account-active', '--account', String(account.numeric_id), '--active', 'true');
    expect(active).toMatchObject({ id: account.id, active: true });

    const user = await cli('admin', 'create-user', '--account', account.id, '--email', 'ana@acme.test', '--password', 'correct horse', '--role', 'technician');
    expect(user).toEqual({ id: expect.stringMatching(/^usr_/), email: 'ana@acme.test', role: 'technician', account_id: account.id });

    const minted = await cli('admin', 'mint-device-token', '--account', account.id, '--product', 'hotswap', '--quota', '5', '--user-email', 'ana@acme.test', '--expires-in', '90d');
    expect(minted).toMatchObject({ jti: expect.any(String), prefix_id: expect.stringMatching(/^ltok_/), exp: expect.any(Number) });
    const check = await verifyDeviceToken(devicePublicKey(keys.device_token_pubkey), minted.token);
    expect(check).toEqual({ ok: true, sub: account.id, jti: minted.jti, exp: minted.exp });
    expect(minted.exp - Math.floor(Date.now() / 1000)).toBeGreaterThan(89 * 86_400);

    const suspended = await cli('admin', 'set-token-status', '--jti', minted.jti, '--status', 'suspended');
    expect(suspended).toMatchObject({ jti: minted.jti, status: 'suspended', product: 'hotswap', quota_limit: 5, use_count: 0 });
  }, 60_000); // five processes one after the other, each loading the cloud

  it('mint-device-token --customer C --lot L stores the customer and lot / job reference on the token', async () => {
    const account = await cli('admin', 'create-account', '--name', 'Lots');
    const minted = await cli('admin', 'mint-device-token', '--account', account.id, '--customer', ' Northwind Schools ', '--lot', 'LOT-42');
    expect(minted).toMatchObject({ customer: 'Northwind Schools', lot_reference: 'LOT-42' });
    const db = databaseUrl ? PostgresDatabase.open(databaseUrl) : SqliteDatabase.open(join(dir, 'cloud.sqlite'));
    try {
      expect(await db.one('SELECT customer, lot_reference FROM license_tokens WHERE jti = @jti', { jti: minted.jti })).toEqual({
        customer: 'Northwind Schools',
        lot_reference: 'LOT-42',
      });
    } finally {
      await db.close();
    }
  }, 30_000);

  it('refuses a bad call with a message on stderr, nothing on stdout and exit code 2', async () => {
    const failure = await run(process.execPath, [BIN, 'admin', 'set-token-status', '--jti', 'x', '--status', 'gone', '--json'], { env: env() }).catch((e) => e);
    expect(failure.code).toBe(2);
    expect(failure.stdout).toBe('');
    expect(failure.stderr).toMatch(/--status must be one of active, revoked, suspended, disabled/);
  });

  it('refuses to mint without DEVICE_TOKEN_PRIVATE_KEY', async () => {
    const account = await cli('admin', 'create-account', '--name', 'Keyless');
    const failure = await run(process.execPath, [BIN, 'admin', 'mint-device-token', '--account', account.id, '--json'], {
      env: { ...env(), DEVICE_TOKEN_PRIVATE_KEY: '' },
    }).catch((e) => e);
    expect(failure.code).toBe(2);
    expect(failure.stderr).toMatch(/DEVICE_TOKEN_PRIVATE_KEY/);
  });

  it('is safe while the server runs: a token minted meanwhile verifies at once', async () => {
    const db = databaseUrl ? PostgresDatabase.open(databaseUrl) : SqliteDatabase.open(join(dir, 'cloud.sqlite'));
    const app = buildCloudApp({ db, clock: systemClock, internalApiSecret: keys.internal_api_secret });
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const account = await cli('admin', 'create-account', '--name', 'Live');
      const minted = await cli('admin', 'mint-device-token', '--account', account.id);
      const body = JSON.stringify({ jti: minted.jti, account_id: account.id });
      const sign = freshSigner(keys.internal_api_secret);
      const res = await fetch(`${base}/internal/tokens/verify`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', ...sign(body) },
      });
      expect(await res.json()).toEqual({ allow: true, status: 'active', account: 'Live', quota_remaining: null });
      await cli('admin', 'set-token-status', '--jti', minted.jti, '--status', 'revoked');
      const after = await fetch(`${base}/internal/tokens/verify`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', ...sign(body) },
      });
      expect(after.status).toBe(403);
    } finally {
      await app.close();
      await db.close();
    }
  });
});
