import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../src/adapters/clock.js';
import { createAccount, setSubscriptionStatus, type SubscriptionStatus } from '../src/adapters/db/accounts.js';
import type { SqlDatabase, SqlRunner } from '../src/adapters/sql/database.js';
import { openTestStore } from './support/test-store.js';
import { freshSigner } from './support/fresh-signer.js';
import { createToken, recordCheckin, setTokenStatus, type TokenRow } from '../src/adapters/db/tokens.js';
import { issuedJobIdOf } from '../src/domain/device/issued-job.js';
import { buildCloudApp, type CloudAppDeps } from '../src/http/app.js';

export const SECRET = 'test-internal-secret-0123456789abcdef';

/** A clock the test moves by hand. */
export function testClock(start = '2026-11-22T12:00:00.000Z'): Clock & { set(iso: string): void; advance(ms: number): void } {
  let current = new Date(start);
  return {
    now: () => new Date(current),
    set: (iso) => {
      current = new Date(iso);
    },
    advance: (ms) => {
      current = new Date(current.getTime() + ms);
    },
  };
}

export interface Cloud {
  app: FastifyInstance;
  /** The store the app runs on: SQLite, or PostgreSQL in the `cloud on postgres` run (support/test-store.ts). */
  db: SqlDatabase;
  clock: ReturnType<typeof testClock>;
  dir: string;
  /** POST with a valid HMAC over exactly the bytes sent, signed afresh for each send (support/fresh-signer.ts). */
  post(url: string, body: unknown): Promise<{ status: number; json: any; text: string }>;
  account(name?: string, status?: SubscriptionStatus): Promise<{ id: number; publicId: string; name: string }>;
  token(
    accountId: number,
    options?: { quota?: number | null; status?: TokenRow['status']; userEmail?: string; product?: 'engine' | 'hotswap'; customer?: string; lot?: string },
  ): Promise<TokenRow>;
  /** A metered check-in through the real validate route; the job_id it issued. */
  checkin(jti: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * Records that a check-in of `jti`'s account issued the job_id `jobId` names (its `-N` base for
 * an engine token), through the adapter the validate route uses, so tests can keep readable
 * job_ids; tests of the check-in rule itself use the real route ({@link Cloud.checkin}).
 */
export async function issueCheckin(db: SqlRunner, jti: string, jobId: string): Promise<void> {
  const token = await db.one<{ id: number; account_id: number; product: 'engine' | 'hotswap' }>(
    'SELECT id, account_id, product FROM license_tokens WHERE jti = @jti',
    { jti },
  );
  const issued = token && issuedJobIdOf(token.product, jobId);
  if (!token || !issued) return;
  if (await db.one('SELECT 1 AS found FROM checkins WHERE job_id = @issued', { issued })) return;
  await recordCheckin(db, issued, token, new Date().toISOString());
}

type ExtraDeps = Partial<Omit<CloudAppDeps, 'db' | 'clock' | 'internalApiSecret'>>;

/**
 * A real cloud app over a real store (a SQLite file in a temp dir, or a fresh PostgreSQL database),
 * driven with `inject`. `deps` may be made from the store (certificate keys live in it).
 */
export async function startCloud(
  options: { secret?: string | undefined; deps?: ExtraDeps | ((db: SqlDatabase) => Promise<ExtraDeps>) } = {},
): Promise<Cloud> {
  const dir = mkdtempSync(join(tmpdir(), 'erasure-cloud-'));
  const db = await openTestStore(dir);
  const clock = testClock();
  const secret = 'secret' in options ? options.secret : SECRET;
  const deps = typeof options.deps === 'function' ? await options.deps(db) : options.deps;
  const app = buildCloudApp({ ...deps, db, clock, internalApiSecret: secret });
  await app.ready();
  const nowIso = () => clock.now().toISOString();
  const sign = freshSigner(SECRET);
  const cloud: Cloud = {
    app,
    db,
    clock,
    dir,
    async post(url, body) {
      const payload = body === undefined ? '' : JSON.stringify(body);
      const headers = sign(payload, Math.floor(clock.now().getTime() / 1000));
      const res = await app.inject({ method: 'POST', url, payload, headers: { ...headers, 'content-type': 'application/json' } });
      return { status: res.statusCode, json: res.body ? safeJson(res.body) : undefined, text: res.body };
    },
    async account(name = 'Acme Refurb', status = 'active') {
      const row = await createAccount(db, { name, subscriptionStatus: 'active', now: nowIso() });
      if (status !== 'active') await setSubscriptionStatus(db, row.id, status, nowIso());
      return { id: row.id, publicId: row.public_id, name: row.name };
    },
    async token(accountId, opts = {}) {
      const row = await createToken(db, {
        accountId,
        product: opts.product ?? 'engine',
        quotaLimit: opts.quota ?? null,
        userEmail: opts.userEmail ?? 'tech@example.com',
        expiresAt: null,
        customer: opts.customer ?? null,
        lotReference: opts.lot ?? null,
        now: nowIso(),
      });
      return opts.status && opts.status !== 'active' ? (await setTokenStatus(db, row.jti, opts.status, nowIso()))! : row;
    },
    async checkin(jti) {
      const res = await cloud.post('/internal/tokens/validate', { jti });
      if (res.status !== 200 || typeof res.json?.job_id !== 'string') throw new Error(`check-in failed: ${res.status} ${res.text}`);
      return res.json.job_id as string;
    },
    async close() {
      await app.close();
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return cloud;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A fingerprint as the agent reports it, with the given DMI identity. */
export function fingerprint(uuid = '4c4c4544-0042-3510-8051-b4c04f564e32', serial = 'B5QVN32', extra: object = {}) {
  return {
    system: { manufacturer: 'Dell Inc.', product: 'Latitude 7490', serial, uuid },
    cpu: { model: 'Intel(R) Core(TM) i7-8650U CPU @ 1.90GHz', cores: 4, threads: 8 },
    memory: { total_bytes: 17_179_869_184 },
    storage: [{ model: 'SAMSUNG MZVLB512HAJQ', serial: 'S4DYNX0M123456', size_bytes: 512_110_190_592, media_type: 'SSD', transport: 'NVMe' }],
    batteries: [{ health_pct: 81 }],
    ...extra,
  };
}
