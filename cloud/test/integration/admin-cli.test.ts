import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devicePublicKey, verifyDeviceToken } from '@erasure/shared';
import { systemClock } from '../../src/adapters/clock.js';
import { saveDeviceTokenSettings } from '../../src/adapters/db/device-token-settings.js';
import { PostgresDatabase } from '../../src/adapters/sql/postgres.js';
import { SqliteDatabase } from '../../src/adapters/sql/sqlite.js';
import { adminCommand } from '../../src/cli/admin-command.js';
import { parseArgs } from '../../src/cli/args.js';
import { keygen } from '../../src/cli/keygen.js';
import { buildCloudApp } from '../../src/http/app.js';
import { freshPostgresUrl, TEST_STORE } from '../support/test-store.js';
import { freshSigner } from '../support/fresh-signer.js';

const run = promisify(execFile);
const BIN = new URL('../../bin/erasure-cloud.js', import.meta.url).pathname;
const DAY = 86_400;

/**
 * `erasure-cloud admin …` on the configured store. The commands run in this process through the
 * CLI's own entry (`adminCommand`: the environment read as the binary reads it, the same argument
 * parser), one behaviour per test, so no test waits on a row of process starts (issue 28 item 19).
 * What only the binary does, its exit code and stderr, has its own tests, one process each.
 */
describe('erasure-cloud keygen and admin (CONTRACT.md)', () => {
  let dir: string;
  /** The store the commands run on: DATA_DIR's SQLite file, or DATABASE_URL's PostgreSQL database. */
  let databaseUrl: string | undefined;
  const keys = keygen();
  const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
    ...process.env,
    DATA_DIR: dir,
    DEVICE_TOKEN_PRIVATE_KEY: keys.device_token_private_key,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...extra,
  });
  const cliIn = async (environment: NodeJS.ProcessEnv, ...args: string[]): Promise<any> => {
    const { positionals, flags } = parseArgs(args);
    expect(positionals[0]).toBe('admin');
    return adminCommand(environment, positionals[1], flags);
  };
  const cli = (...args: string[]) => cliIn(env(), ...args);
  const openDb = () => (databaseUrl ? PostgresDatabase.open(databaseUrl) : SqliteDatabase.open(join(dir, 'cloud.sqlite')));
  const nowSeconds = () => Math.floor(Date.now() / 1000);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'erasure-cli-'));
    if (TEST_STORE === 'postgres') databaseUrl = await freshPostgresUrl();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keygen prints fresh base64 32-byte keys and a secret as one JSON document', async () => {
    const printed = JSON.parse((await run(process.execPath, [BIN, 'keygen', '--json'])).stdout);
    expect(Buffer.from(printed.device_token_private_key, 'base64')).toHaveLength(32);
    expect(Buffer.from(printed.device_token_pubkey, 'base64')).toHaveLength(32);
    expect(printed.internal_api_secret).toMatch(/^[0-9a-f]{64}$/);
    expect(printed.device_token_private_key).not.toBe(keys.device_token_private_key);
  }, 60_000); // one process start: generous for a loaded machine, not a measure of it

  it('create-account --inactive creates an account that is not active', async () => {
    const account = await cli('admin', 'create-account', '--name', 'Acme Refurb', '--inactive');
    expect(account).toMatchObject({ id: expect.stringMatching(/^acct_/), numeric_id: expect.any(Number), name: 'Acme Refurb', active: false });
  });

  it('set-account-active --active true activates an account named by its numeric id', async () => {
    const account = await cli('admin', 'create-account', '--name', 'Dormant', '--inactive');
    const active = await cli('admin', 'set-account-active', '--account', String(account.numeric_id), '--active', 'true');
    expect(active).toMatchObject({ id: account.id, active: true });
  });

  it('create-user adds a user with the role asked for', async () => {
    const account = await cli('admin', 'create-account', '--name', 'Users');
    const user = await cli('admin', 'create-user', '--account', account.id, '--email', 'ana@acme.test', '--password', 'correct horse', '--role', 'technician');
    expect(user).toEqual({ id: expect.stringMatching(/^usr_/), email: 'ana@acme.test', role: 'technician', account_id: account.id });
  });

  it('mint-device-token signs a token the fleet key verifies, with the product, quota and lifetime asked for', async () => {
    const account = await cli('admin', 'create-account', '--name', 'Minted');
    const minted = await cli('admin', 'mint-device-token', '--account', account.id, '--product', 'hotswap', '--quota', '5', '--user-email', 'ana@acme.test', '--expires-in', '30d');
    expect(minted).toMatchObject({ jti: expect.any(String), prefix_id: expect.stringMatching(/^ltok_/), exp: expect.any(Number), quota_limit: 5 });
    const check = await verifyDeviceToken(devicePublicKey(keys.device_token_pubkey), minted.token);
    expect(check).toEqual({ ok: true, sub: account.id, jti: minted.jti, exp: minted.exp });
    expect(minted.exp - nowSeconds()).toBeGreaterThan(29 * DAY);
    expect(minted.exp - nowSeconds()).toBeLessThanOrEqual(30 * DAY);
  });

  it('set-token-status suspends a token and prints it', async () => {
    const account = await cli('admin', 'create-account', '--name', 'Suspended');
    const minted = await cli('admin', 'mint-device-token', '--account', account.id, '--product', 'hotswap', '--quota', '5');
    const suspended = await cli('admin', 'set-token-status', '--jti', minted.jti, '--status', 'suspended');
    expect(suspended).toMatchObject({ jti: minted.jti, status: 'suspended', product: 'hotswap', quota_limit: 5, use_count: 0 });
  });

  describe('mint-device-token without --quota or --expires-in: the terms a web app token gets (issue 28 item 4)', () => {
    const quotaOf = async (jti: string) => {
      const db = openDb();
      try {
        return (await db.one<{ quota_limit: number | null }>('SELECT quota_limit FROM license_tokens WHERE jti = @jti', { jti }))!.quota_limit;
      } finally {
        await db.close();
      }
    };

    it('the built-in defaults: 100 check-ins and 90 days, not unlimited', async () => {
      const account = await cli('admin', 'create-account', '--name', 'Defaults');
      const minted = await cli('admin', 'mint-device-token', '--account', account.id);
      expect(minted.quota_limit).toBe(100);
      expect(await quotaOf(minted.jti)).toBe(100);
      expect(minted.exp - nowSeconds()).toBeGreaterThan(89 * DAY);
      expect(minted.exp - nowSeconds()).toBeLessThanOrEqual(90 * DAY);
    });

    it('the deployment defaults DEVICE_TOKEN_DEFAULT_QUOTA and DEVICE_TOKEN_DEFAULT_LIFETIME_DAYS', async () => {
      const account = await cli('admin', 'create-account', '--name', 'Deployment');
      const minted = await cliIn(env({ DEVICE_TOKEN_DEFAULT_QUOTA: '7', DEVICE_TOKEN_DEFAULT_LIFETIME_DAYS: '30' }), 'admin', 'mint-device-token', '--account', account.id);
      expect(await quotaOf(minted.jti)).toBe(7);
      expect(minted.exp - nowSeconds()).toBeGreaterThan(29 * DAY);
      expect(minted.exp - nowSeconds()).toBeLessThanOrEqual(30 * DAY);
    });

    it("the account's own token terms, when its admins chose them", async () => {
      const account = await cli('admin', 'create-account', '--name', 'Chosen');
      await cli('admin', 'create-user', '--account', account.id, '--email', 'admin@chosen.test', '--password', 'correct horse');
      const db = openDb();
      try {
        const admin = (await db.one<{ id: number }>("SELECT id FROM users WHERE email = 'admin@chosen.test'"))!;
        await saveDeviceTokenSettings(db, { accountId: account.numeric_id, quotaLimit: 12, lifetimeDays: 14, userId: admin.id, now: new Date().toISOString() });
      } finally {
        await db.close();
      }
      const minted = await cli('admin', 'mint-device-token', '--account', account.id);
      expect(await quotaOf(minted.jti)).toBe(12);
      expect(minted.exp - nowSeconds()).toBeGreaterThan(13 * DAY);
      expect(minted.exp - nowSeconds()).toBeLessThanOrEqual(14 * DAY);
    });

    it('unlimited only when asked for by name: --quota unlimited', async () => {
      const account = await cli('admin', 'create-account', '--name', 'Unlimited');
      const minted = await cli('admin', 'mint-device-token', '--account', account.id, '--quota', 'unlimited');
      expect(minted.quota_limit).toBeNull();
      expect(await quotaOf(minted.jti)).toBeNull();
    });
  });

  it('mint-device-token --customer C --lot L stores the customer and lot / job reference on the token', async () => {
    const account = await cli('admin', 'create-account', '--name', 'Lots');
    const minted = await cli('admin', 'mint-device-token', '--account', account.id, '--customer', ' Northwind Schools ', '--lot', 'LOT-42');
    expect(minted).toMatchObject({ customer: 'Northwind Schools', lot_reference: 'LOT-42' });
    const db = openDb();
    try {
      expect(await db.one('SELECT customer, lot_reference FROM license_tokens WHERE jti = @jti', { jti: minted.jti })).toEqual({
        customer: 'Northwind Schools',
        lot_reference: 'LOT-42',
      });
    } finally {
      await db.close();
    }
  });

  it('mint-device-token --site S stores the site the floor view groups its machines under', async () => {
    const account = await cli('admin', 'create-account', '--name', 'Sites');
    const minted = await cli('admin', 'mint-device-token', '--account', account.id, '--site', ' Leeds, line 2 ');
    expect(minted).toMatchObject({ site: 'Leeds, line 2' });
    const db = openDb();
    try {
      expect(await db.one('SELECT site FROM license_tokens WHERE jti = @jti', { jti: minted.jti })).toEqual({ site: 'Leeds, line 2' });
    } finally {
      await db.close();
    }
  });

  it('mint-device-token --language stores the language its certificates are drawn in, and refuses one not offered', async () => {
    const account = await cli('admin', 'create-account', '--name', 'Languages');
    const minted = await cli('admin', 'mint-device-token', '--account', account.id, '--language', 'fr');
    expect(minted).toMatchObject({ certificate_language: 'fr' });
    const followsAccount = await cli('admin', 'mint-device-token', '--account', account.id);
    expect(followsAccount).toMatchObject({ certificate_language: null });
    await expect(cli('admin', 'mint-device-token', '--account', account.id, '--language', 'it')).rejects.toThrow(/--language must be one of en, de, fr, es/);
    const db = openDb();
    try {
      expect(await db.one('SELECT certificate_language FROM license_tokens WHERE jti = @jti', { jti: minted.jti })).toEqual({ certificate_language: 'fr' });
    } finally {
      await db.close();
    }
  });

  it('refuses a bad call with a message on stderr, nothing on stdout and exit code 2', async () => {
    const failure = await run(process.execPath, [BIN, 'admin', 'set-token-status', '--jti', 'x', '--status', 'gone', '--json'], { env: env() }).catch((e) => e);
    expect(failure.code).toBe(2);
    expect(failure.stdout).toBe('');
    expect(failure.stderr).toMatch(/--status must be one of active, revoked, suspended, disabled/);
  }, 60_000); // one process start

  it('refuses to mint without DEVICE_TOKEN_PRIVATE_KEY', async () => {
    const account = await cli('admin', 'create-account', '--name', 'Keyless');
    await expect(cliIn(env({ DEVICE_TOKEN_PRIVATE_KEY: '' }), 'admin', 'mint-device-token', '--account', account.id)).rejects.toThrow(/DEVICE_TOKEN_PRIVATE_KEY/);
  });

  it('is safe while the server runs: a token minted meanwhile verifies at once', async () => {
    const db = openDb();
    const app = buildCloudApp({ db, clock: systemClock, internalApiSecret: keys.internal_api_secret });
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    // Each call signed afresh: the cloud refuses a replayed signature (issue 28 item 6).
    const sign = freshSigner(keys.internal_api_secret);
    const verify = (body: string) =>
      fetch(`${base}/internal/tokens/verify`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', ...sign(body) },
      });
    try {
      const account = await cli('admin', 'create-account', '--name', 'Live');
      const minted = await cli('admin', 'mint-device-token', '--account', account.id);
      const body = JSON.stringify({ jti: minted.jti, account_id: account.id });
      expect(await (await verify(body)).json()).toEqual({ allow: true, status: 'active', account: 'Live', quota_remaining: 100 });
      await cli('admin', 'set-token-status', '--jti', minted.jti, '--status', 'revoked');
      expect((await verify(body)).status).toBe(403);
    } finally {
      await app.close();
      await db.close();
    }
  });
});
