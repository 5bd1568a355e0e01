import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { FloorReportBody } from '@erasure/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { intent, simulatedServe, state, until, type ServeSut } from '../support/serve-env.js';
import { startCloudStack, type CloudStack } from '../support/stack.js';

/**
 * Issue 32: the simulated machine's `serve` reports to the real gateway and cloud, on a real
 * device token, and the cloud keeps its latest report as the machine's floor row.
 */
describe('the floor view: a simulated machine reports through the real gateway to the cloud', () => {
  const work = mkdtempSync(join(tmpdir(), 'agent-floor-'));
  let stack: CloudStack;
  let sut: ServeSut | undefined;

  beforeAll(async () => {
    stack = await startCloudStack(work);
  }, 180_000);
  afterAll(async () => {
    await sut?.close();
    await stack?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  const reports = (): FloorReportBody[] => {
    const db = new Database(stack.cloudDb, { readonly: true });
    try {
      return (db.prepare('SELECT report FROM floor_machines').all() as Array<{ report: string }>).map((r) => JSON.parse(r.report) as FloorReportBody);
    } finally {
      db.close();
    }
  };

  it("stores the machine's drives with their stage while it erases, and their result once done", async () => {
    const tokenFile = join(work, 'device-token');
    stack.mintToken(tokenFile, { account: 'Floor Refurb', quota: 10 });
    // Slow enough that the overwrite is still running when the first report after start arrives.
    sut = await simulatedServe({ env: { ERASURE_GATEWAY_URL: stack.gatewayUrl, ERASURE_DEVICE_TOKEN_FILE: tokenFile, ERASURE_SIMULATE_MBPS: '2' } });
    await sut.controller.bootUp();
    const unlocked = await state(sut);
    expect(unlocked.locked).toBe(false);
    await until(() => reports().length === 1, 20_000);
    expect(reports()[0]).toMatchObject({ kind: 'machine', drives: [] });

    const devices = unlocked.drives.map((d) => d.device);
    await intent(sut, { type: 'select', devices });
    await intent(sut, { type: 'confirm', text: devices.length === 1 ? 'ERASE 1 DRIVE' : `ERASE ${devices.length} DRIVES` });
    expect((await intent(sut, { type: 'start' })).status).toBe(200);

    await until(() => reports()[0]?.drives.some((d) => d.stage === 'write' || d.stage === 'verify') ?? false, 30_000);
    const running = reports()[0]!;
    expect(running.drives.map((d) => d.device).sort()).toEqual([...devices].sort());
    expect(running.job?.drives).toBe(devices.length);

    await until(() => sut!.controller.snapshot().run.status === 'finished', 120_000);
    await until(() => reports()[0]?.drives.every((d) => d.stage === 'erased') ?? false, 20_000);
    const done = reports()[0]!;
    expect(done.sequence).toBeGreaterThan(running.sequence);
    expect(done.boot_id).toBe(running.boot_id);
  }, 240_000);
});
