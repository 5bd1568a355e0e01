import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresDatabase } from '../../cloud/src/adapters/sql/postgres.js';
import { CLOUD_BIN, GATEWAY_BIN, wipeResultBody, type Keys } from '../support/stack.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';

const run = promisify(execFile);

interface Service {
  child: ChildProcess;
  url: string;
  /** Every line the process printed on stdout (the request log) so far. */
  lines: string[];
}

/** Spawns `bin command` and resolves once it printed its ready line; keeps its stdout lines. */
function spawnService(bin: string, args: string[], env: NodeJS.ProcessEnv, ready: RegExp): Promise<Service> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const lines: string[] = [];
    let output = '';
    let pending = '';
    const timer = setTimeout(() => reject(new Error(`${bin} ${args.join(' ')} did not start:\n${output}`)), 30_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      pending += chunk.toString();
      const parts = pending.split('\n');
      pending = parts.pop()!;
      lines.push(...parts);
      const match = ready.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1] ?? '', lines });
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${bin} ${args.join(' ')} exited ${code ?? signal}:\n${output}`));
    });
  });
}

const stop = (service: Service | undefined): Promise<void> => {
  const child = service?.child;
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
};

const kill = (service: Service): Promise<void> =>
  new Promise((resolve) => {
    service.child.once('exit', () => resolve());
    service.child.kill('SIGKILL');
  });


/**
 * Issue 14: two cloud instances and two `erasure-cloud worker` processes from their binaries on
 * one PostgreSQL database, behind one gateway that spreads calls over both instances. They share
 * DATA_DIR only for certificate objects and keys (the local object store, mounted shared).
 */
describe('two cloud instances and two workers on one PostgreSQL', { timeout: 240_000 }, () => {
  let postgres: TestPostgres;
  let db: PostgresDatabase;
  let dataDir: string;
  let keys: Keys;
  let env: NodeJS.ProcessEnv;
  const instances: Service[] = [];
  const workers: Service[] = [];
  let gateway: Service;

  const cli = async (...args: string[]) => JSON.parse((await run(process.execPath, [CLOUD_BIN, ...args, '--json'], { env: { ...process.env, ...env } })).stdout);

  const call = async (token: string, path: string, body?: unknown) => {
    const res = await fetch(`${gateway.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };

  const mint = async (quota?: number) => {
    const account = await cli('admin', 'create-account', '--name', `Fleet ${Math.random().toString(36).slice(2, 8)}`);
    const minted = await cli('admin', 'mint-device-token', '--account', account.id, ...(quota === undefined ? [] : ['--quota', String(quota)]));
    return { account, token: minted.token as string };
  };

  /** Polls until every certificate of the account is complete (or the deadline), answers them. */
  const settledCertificates = async (accountId: string, expected: number, deadlineMs = 150_000) => {
    const until = Date.now() + deadlineMs;
    for (;;) {
      const rows = await db.many<{ wipe_result_id: number; certificate_number: string; sequence: number; status: string }>(
        `SELECT c.wipe_result_id, c.certificate_number, c.sequence, c.status
           FROM certificates c JOIN accounts a ON a.id = c.account_id
          WHERE a.public_id = @accountId ORDER BY c.sequence`,
        { accountId },
      );
      if ((rows.length === expected && rows.every((r) => r.status === 'complete')) || Date.now() > until) return rows;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };

  beforeAll(async () => {
    postgres = await startPostgres();
    const url = await postgres.createDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'erasure-multi-'));
    keys = JSON.parse((await run(process.execPath, [CLOUD_BIN, 'keygen', '--json'])).stdout) as Keys;
    env = {
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: dataDir,
      DATABASE_URL: url,
      INTERNAL_API_SECRET: keys.internal_api_secret,
      DEVICE_TOKEN_PRIVATE_KEY: keys.device_token_private_key,
    };
    // Every file of the PostgreSQL series, read from the folder, so a new migration needs no edit here.
    const series = readdirSync(fileURLToPath(new URL('../../cloud/migrations/postgres/', import.meta.url))).filter((f) => f.endsWith('.sql')).sort();
    expect(await cli('migrate')).toEqual({ store: 'postgres', applied: series });
    for (let i = 0; i < 2; i++) instances.push(await spawnService(CLOUD_BIN, ['serve'], env, /listening on (http:\/\/[^\s"]+)/));
    for (let i = 0; i < 2; i++) workers.push(await spawnService(CLOUD_BIN, ['worker', '--lease-seconds', '5'], env, /worker running \(pid (\d+)\)/));
    gateway = await spawnService(
      GATEWAY_BIN,
      ['serve'],
      {
        HOST: '127.0.0.1',
        PORT: '0',
        DEVICE_TOKEN_PUBKEY: keys.device_token_pubkey,
        INTERNAL_API_SECRET: keys.internal_api_secret,
        CLOUD_INTERNAL_URL: instances.map((s) => s.url).join(','),
      },
      /listening on (http:\/\/[^\s"]+)/,
    );
    db = PostgresDatabase.open(url, { max: 2 });
  }, 180_000);

  afterAll(async () => {
    await stop(gateway);
    for (const service of [...workers, ...instances]) await stop(service);
    await db?.close();
    await postgres?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('allows exactly 10 of 60 parallel check-ins against quota 10, spread over both instances', async () => {
    const { token } = await mint(10);
    const answers = await Promise.all(Array.from({ length: 60 }, () => call(token, '/api/checkin')));
    expect(answers.filter((a) => a.status === 200 && a.body.allow === true)).toHaveLength(10);
    expect(answers.filter((a) => a.status === 403 && a.body.reason === 'quota_exceeded')).toHaveLength(50);
    expect(new Set(answers.filter((a) => a.status === 200).map((a) => a.body.job_id)).size).toBe(10);
    for (const instance of instances) expect(instance.lines.filter((l) => l.includes('/internal/tokens/validate')).length).toBeGreaterThan(0);
  });

  it('answers exactly one 201 to 20 parallel duplicates of one wipe result across both instances, the same wipe_result_id to all', async () => {
    const { token } = await mint();
    const { body } = await call(token, '/api/checkin');
    const answers = await Promise.all(Array.from({ length: 20 }, () => call(token, '/api/wipe_result', wipeResultBody(body.job_id, 0))));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(19);
    expect(new Set(answers.map((a) => a.body.wipe_result_id)).size).toBe(1);
    for (const instance of instances) expect(instance.lines.filter((l) => l.includes('/internal/wipe_results')).length).toBeGreaterThan(0);
  });

  it('numbers certificates gaplessly, exactly one per result, with both workers and both instances claiming jobs side by side', async () => {
    const { account, token } = await mint();
    const { body } = await call(token, '/api/checkin');
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => call(token, '/api/wipe_result', wipeResultBody(body.job_id, i))));
    expect(answers.every((a) => a.status === 201)).toBe(true);
    const certificates = await settledCertificates(account.id, 30);
    expect(certificates.map((c) => c.status)).toEqual(Array(30).fill('complete'));
    expect(certificates.map((c) => c.sequence)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(new Set(certificates.map((c) => c.wipe_result_id)).size).toBe(30);
  });

  it('keeps every acknowledged write and certifies every result exactly once when an instance and a worker are SIGKILLed mid-load', async () => {
    const { account, token } = await mint();
    const { body } = await call(token, '/api/checkin');
    const total = 40;
    const acknowledged = new Map<number, string>();
    const checkedIn: string[] = [];
    let killed = false;
    // Four devices check in and report results one after another; a refused call is retried, as devices do.
    const device = async (lane: number) => {
      for (let i = lane; i < total; i += 4) {
        for (;;) {
          const answer = await call(token, '/api/checkin').catch(() => undefined);
          if (answer?.status === 200) {
            checkedIn.push(answer.body.job_id);
            break;
          }
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        for (;;) {
          const answer = await call(token, '/api/wipe_result', wipeResultBody(body.job_id, i)).catch(() => undefined);
          if (answer && (answer.status === 201 || answer.status === 200)) {
            acknowledged.set(i, answer.body.wipe_result_id);
            break;
          }
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        if (!killed && acknowledged.size >= 10) {
          killed = true;
          await Promise.all([kill(instances[0]!), kill(workers[0]!)]);
        }
      }
    };
    await Promise.all([0, 1, 2, 3].map(device));
    expect(killed).toBe(true);
    expect(acknowledged.size).toBe(total);

    const stored = await db.many<{ public_id: string }>(
      `SELECT w.public_id FROM wipe_results w JOIN accounts a ON a.id = w.account_id WHERE a.public_id = @accountId`,
      { accountId: account.id },
    );
    expect(new Set(stored.map((r) => r.public_id))).toEqual(new Set(acknowledged.values()));
    // Every acknowledged check-in is recorded, and the quota spent is exactly the check-ins recorded.
    const checkins = await db.many<{ job_id: string }>(
      `SELECT c.job_id FROM checkins c JOIN accounts a ON a.id = c.account_id WHERE a.public_id = @accountId`,
      { accountId: account.id },
    );
    const recorded = new Set(checkins.map((c) => c.job_id));
    expect([body.job_id, ...checkedIn].filter((jobId) => !recorded.has(jobId))).toEqual([]);
    const spent = await db.one<{ use_count: number }>(
      `SELECT t.use_count FROM license_tokens t JOIN accounts a ON a.id = t.account_id WHERE a.public_id = @accountId`,
      { accountId: account.id },
    );
    expect(spent!.use_count).toBe(checkins.length);

    // The dead worker's leases run out (5 s; the dead instance's in-process worker holds 60 s).
    const certificates = await settledCertificates(account.id, total, 180_000);
    expect(certificates.map((c) => c.status)).toEqual(Array(total).fill('complete'));
    expect(certificates.map((c) => c.sequence)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    expect(new Set(certificates.map((c) => c.wipe_result_id)).size).toBe(total);
  });
});
