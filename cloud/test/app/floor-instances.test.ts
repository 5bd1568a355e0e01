import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FloorReportBody } from '@erasure/shared';
import { createAccount } from '../../src/adapters/db/accounts.js';
import { createToken } from '../../src/adapters/db/tokens.js';
import { createUser } from '../../src/adapters/db/users.js';
import { hashPassword } from '../../src/adapters/passwords.js';
import type { SqlDatabase } from '../../src/adapters/sql/database.js';
import { PostgresDatabase } from '../../src/adapters/sql/postgres.js';
import { buildCloudApp } from '../../src/http/app.js';
import { SECRET, testClock } from '../helpers.js';
import { freshSigner } from '../support/fresh-signer.js';
import { readBoardEvents } from '../support/floor-events.js';
import { freshPostgresUrl, TEST_STORE } from '../support/test-store.js';

// Issue 32 item 2: with PostgreSQL and several cloud instances, a board connected to one
// instance sees the reports that reached another (LISTEN/NOTIFY; no other broker). SQLite runs one
// instance, which tells its own boards (floor.test.ts), so this runs on PostgreSQL only.
describe.runIf(TEST_STORE === 'postgres')('the floor view across cloud instances on one PostgreSQL', () => {
  let dir: string;
  const open: { app: FastifyInstance; db: SqlDatabase }[] = [];
  const clock = testClock();
  let url: string;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'erasure-floor-'));
    url = await freshPostgresUrl();
  });
  afterEach(async () => {
    for (const { app, db } of open.splice(0)) {
      await app.close();
      await db.close();
    }
    rmSync(dir, { recursive: true, force: true });
  });

  const instance = async () => {
    const db = PostgresDatabase.open(url, { max: 4 });
    const app = buildCloudApp({ db, clock, internalApiSecret: SECRET });
    await app.ready();
    open.push({ app, db });
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    return { app, db, address };
  };

  it('a report sent to instance A appears on a board connected to instance B', async () => {
    const a = await instance();
    const b = await instance();
    const now = clock.now().toISOString();
    const account = await createAccount(a.db, { name: 'Two Hosts Refurb', subscriptionStatus: 'active', now });
    const token = await createToken(a.db, { accountId: account.id, product: 'engine', quotaLimit: null, userEmail: 'tech@example.com', expiresAt: null, customer: null, lotReference: null, now });
    await createUser(a.db, { accountId: account.id, email: 'staff@two.test', passwordHash: await hashPassword('correct horse battery'), role: 'staff', now });
    const login = await b.app.inject({ method: 'POST', url: '/login', payload: { email: 'staff@two.test', password: 'correct horse battery' } });
    const cookie = String(login.headers['set-cookie']).split(';')[0]!;
    const events = await readBoardEvents(`${b.address}/app/api/floor/events`, cookie);
    try {
      expect((await events.next()).machines).toEqual([]);
      const report: FloorReportBody = {
        machine_id: 'station-rack-2',
        boot_id: 'boot-1',
        kind: 'station',
        sequence: 1,
        sent_at: now,
        drives: [{ device: '/dev/sdc', serial: 'WD-1', bay: 'Bay 3', stage: 'verify', pass: 0, bytes_done: 5, bytes_total: 10 }],
        bays: [{ label: 'Bay 3', state: 'verifying', device: '/dev/sdc' }],
      };
      const payload = JSON.stringify({ jti: token.jti, ...report });
      const sent = await a.app.inject({ method: 'POST', url: '/internal/floor_report', payload, headers: { ...freshSigner(SECRET)(payload, Math.floor(clock.now().getTime() / 1000)), 'content-type': 'application/json' } });
      expect(sent.json()).toEqual({ ok: true, stored: true });
      // Well before the board's own 15 s refresh: the NOTIFY woke instance B.
      const board = await events.next(5_000);
      expect(board.machines.map((m) => [m.machine_id, m.drives[0]?.bay])).toEqual([['station-rack-2', 'Bay 3']]);
    } finally {
      events.close();
    }
  });
});
