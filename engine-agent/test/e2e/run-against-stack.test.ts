import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaceDir } from '../support/fixtures.js';
import { loopSkipReason, loopWith, makeWorkDir, removeDir } from '../support/loop.js';
import { buildForE2e, cloudCli, startService, stopService, type Service } from '../support/stack.js';

const MiB = 1024 * 1024;

describe.skipIf(Boolean(loopSkipReason))('erasure-agent run against a real cloud and gateway', () => {
  const work = loopSkipReason ? '' : makeWorkDir('agent-e2e-');
  let cloud: Service | undefined;
  let gateway: Service | undefined;
  let cloudEnv: NodeJS.ProcessEnv = {};
  let jti = '';
  const tokenFile = join(work, 'device-token');
  const loops: Array<{ cleanup: () => void }> = [];

  beforeAll(async () => {
    buildForE2e();
    const base = { ...process.env, HOST: '127.0.0.1', PORT: '0' };
    const keys = cloudCli({ ...base, DATA_DIR: join(work, 'cloud') }, ['keygen']);
    cloudEnv = { ...base, DATA_DIR: join(work, 'cloud'), INTERNAL_API_SECRET: String(keys.internal_api_secret), DEVICE_TOKEN_PRIVATE_KEY: String(keys.device_token_private_key) };
    mkdirSync(join(work, 'cloud'), { recursive: true });
    const account = cloudCli(cloudEnv, ['admin', 'create-account', '--name', 'E2E Refurb']);
    const token = cloudCli(cloudEnv, ['admin', 'mint-device-token', '--account', String(account.id), '--quota', '10']);
    jti = String(token.jti);
    writeFileSync(tokenFile, `${String(token.token)}\n`);
    cloud = await startService('cloud/bin/erasure-cloud.js', cloudEnv);
    gateway = await startService('gateway/bin/erasure-gateway.js', { ...base, DEVICE_TOKEN_PUBKEY: String(keys.device_token_pubkey), INTERNAL_API_SECRET: String(keys.internal_api_secret), CLOUD_INTERNAL_URL: cloud.url });
  }, 180_000);

  afterAll(() => {
    stopService(gateway);
    stopService(cloud);
    for (const l of loops) l.cleanup();
    if (work) removeDir(work);
  });

  const agent = (gatewayUrl: string, devices: string[]) =>
    spawnSync(process.execPath, [join(workspaceDir, 'bin/erasure-agent.js'), 'run', '--json', '--yes', ...devices.flatMap((d) => ['--device', d])], {
      env: { ...process.env, ERASURE_GATEWAY_URL: gatewayUrl, ERASURE_DEVICE_TOKEN_FILE: tokenFile, DATA_DIR: join(work, 'agent') },
      encoding: 'utf8',
      timeout: 60_000,
    });
  const disk = (name: string) => {
    const bytes = randomBytes(4 * MiB);
    const l = loopWith(work, name, bytes);
    loops.push(l);
    return { ...l, bytes };
  };

  it('erases two loop devices and reports one wipe result each with -0/-1 job ids', () => {
    const a = disk('a.img');
    const b = disk('b.img');
    const sut = agent(gateway?.url ?? '', [a.device, b.device]);
    expect(sut.status, sut.stderr).toBe(0);
    const out = JSON.parse(sut.stdout) as { phase: string; drives: Array<{ job_id: string; erased: boolean; delivered: boolean }> };
    expect(out.phase).toBe('done');
    const [first, second] = out.drives;
    const base = first?.job_id.replace(/-0$/, '');
    expect([first?.job_id, second?.job_id]).toEqual([`${base}-0`, `${base}-1`]);
    expect(readFileSync(a.file).equals(Buffer.alloc(4 * MiB))).toBe(true);
    expect(readFileSync(b.file).equals(Buffer.alloc(4 * MiB))).toBe(true);
    const db = new Database(join(work, 'cloud', 'cloud.sqlite'), { readonly: true });
    const rows = db.prepare('SELECT job_id, wipe_status, validation, verification_hash, drive_capacity_gb FROM wipe_results ORDER BY job_id').all() as Array<Record<string, unknown>>;
    db.close();
    expect(rows.map((r) => [r.job_id, r.wipe_status, r.validation])).toEqual([
      [`${base}-0`, 'completed', 'approved'],
      [`${base}-1`, 'completed', 'approved'],
    ]);
    expect(String(rows[0]?.verification_hash)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('erases nothing when the gateway cannot be reached (exit 2)', () => {
    const c = disk('c.img');
    const sut = agent('http://127.0.0.1:9', [c.device]);
    expect(sut.status, sut.stderr).toBe(2);
    expect(JSON.parse(sut.stdout)).toMatchObject({ phase: 'denied', at: 'health' });
    expect(readFileSync(c.file).equals(c.bytes)).toBe(true);
  }, 30_000);

  it('erases nothing with a revoked token (exit 2)', () => {
    cloudCli(cloudEnv, ['admin', 'set-token-status', '--jti', jti, '--status', 'revoked']);
    const d = disk('d.img');
    const sut = agent(gateway?.url ?? '', [d.device]);
    expect(sut.status, sut.stderr).toBe(2);
    expect(JSON.parse(sut.stdout)).toMatchObject({ phase: 'denied', at: 'verify', reason: 'revoked' });
    expect(readFileSync(d.file).equals(d.bytes)).toBe(true);
  });
});

