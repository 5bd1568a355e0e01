import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { stationBayOf } from '@erasure/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runErase, type AgentEnv } from '../../src/agent.js';
import { planErase } from '../../src/drives/plan-erase.js';
import { buildCapabilities } from '../../src/drives/capabilities.js';
import { readDriveIdentity } from '../../src/probes/drive-identity.js';
import { guardTarget } from '../../src/safety/guard.js';
import { createStation } from '../../src/station/station.js';
import { stationBayRunner } from '../../src/adapters/station-bay-runner.js';
import { loopSkipReason, loopWith, makeWorkDir, removeDir } from '../support/loop.js';
import { startHotswapStack } from '../support/hotswap-stack.js';

const MiB = 1024 * 1024;

/**
 * One station bay's run (spec sequence step 7): a hotswap token checks in per drive, so the
 * drive's job id is the check-in's own, unsuffixed; the bay and chassis map travel to the cloud
 * in tool_components, and the cloud certifies the result because a check-in issued that id.
 */
describe.skipIf(Boolean(loopSkipReason))('a hotswap station bay against a real cloud and gateway', () => {
  const work = loopSkipReason ? '' : makeWorkDir('station-e2e-');
  let stack: Awaited<ReturnType<typeof startHotswapStack>> | undefined;
  let env: AgentEnv;
  const loops: Array<{ cleanup: () => void }> = [];

  beforeAll(async () => {
    stack = await startHotswapStack(work, 5);
    env = stack.env;
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
    for (const l of loops) l.cleanup();
    if (work) removeDir(work);
  });

  it('checks the drive in on its own, erases it, and the certified result names its bay and chassis map', async () => {
    const bytes = randomBytes(4 * MiB);
    const l = loopWith(work, 'bay3.img', bytes);
    loops.push(l);
    const capabilities = buildCapabilities({ device: l.device, lsblk: { name: l.device.slice(5), type: 'loop', size: 4 * MiB, rota: false } as never });
    const drive = { device: l.device, internal: false, capabilities, plan: planErase(capabilities, { forceMethod: 'overwrite' }) };
    const session = await runErase(env, [drive], {}, { product: 'hotswap', bay: { bay: 'Bay 3', chassis: 'Front cage' } });
    expect(session.phase).toBe('done');
    const report = session.phase === 'done' ? session.reports[0] : undefined;
    expect(report?.jobId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(readFileSync(l.file).equals(Buffer.alloc(4 * MiB))).toBe(true);
    const db = new Database(join(work, 'cloud', 'cloud.sqlite'), { readonly: true });
    try {
      const row = db.prepare('SELECT job_id, tool_components, certifiable, uncertified_reason FROM wipe_results').get() as Record<string, unknown>;
      expect(row).toMatchObject({ job_id: report?.jobId, certifiable: 1, uncertified_reason: null });
      // The erase adds its own components after the station's; the bay reads back whole.
      expect(stationBayOf(String(row.tool_components))).toEqual({ bay: 'Bay 3', chassis: 'Front cage' });
    } finally {
      db.close();
    }
  });

  it('erases two bays at once through the station, each checked in on its own and certified with its bay label', async () => {
    const a = loopWith(work, 'bay1.img', randomBytes(4 * MiB));
    const b = loopWith(work, 'bay2.img', randomBytes(4 * MiB));
    loops.push(a, b);
    const lanes = new Map([[a.device, 'lane-1'], [b.device, 'lane-2']]);
    const station = createStation(
      { name: 'Bench dock', bays: [{ lane: 'lane-1', label: 'Bay 1' }, { lane: 'lane-2', label: 'Bay 2' }] },
      {
        // Loop devices have no bus path: the test maps them to lanes as a dock's ports would be.
        laneOf: async (p) => ({ lane: lanes.get(p.event.devname ?? '') ?? 'none', connector: { transport: 'usb', controller: 'test' } }),
        // The identity binds each bay's work to its loop device as probed, as the real probe does.
        probe: async (device) => ({ device, sizeBytes: 4 * MiB, health: 'unknown', identity: await readDriveIdentity(env.sys, device) }),
        guard: async (device) => {
          const v = await guardTarget(env.sys, device, [device]);
          return v.ok ? { ok: true } : { ok: false, reason: v.reason };
        },
        runBay: stationBayRunner({ ...env, config: { ...env.config } }, { account: 'Station Refurb', recordId: 'CW-20261125-010000' }),
        changed: () => undefined,
      },
      () => 'auto',
    );
    for (const l of [a, b]) {
      const devpath = `/devices/virtual/block/${l.device.slice(5)}`;
      await station.presence({ devpath, present: true, event: { action: 'add', devpath, devname: l.device, devtype: 'disk', seqnum: undefined, properties: {} } });
    }
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline && !station.views().every((v) => v.bay.state === 'passed' || v.bay.state === 'failed')) await new Promise((r) => setTimeout(r, 100));
    expect(station.views().map((v) => [v.label, v.bay.state])).toEqual([
      ['Bay 1', 'passed'],
      ['Bay 2', 'passed'],
    ]);
    for (const l of [a, b]) expect(readFileSync(l.file).equals(Buffer.alloc(4 * MiB))).toBe(true);
    const db = new Database(join(work, 'cloud', 'cloud.sqlite'), { readonly: true });
    try {
      const rows = db.prepare('SELECT job_id, tool_components, certifiable FROM wipe_results ORDER BY id DESC LIMIT 2').all() as Array<Record<string, unknown>>;
      expect(rows.map((r) => stationBayOf(String(r.tool_components))?.bay).sort()).toEqual(['Bay 1', 'Bay 2']);
      expect(rows.every((r) => r.certifiable === 1 && /^[0-9a-f-]{36}$/.test(String(r.job_id)))).toBe(true);
      expect(new Set(rows.map((r) => r.job_id)).size).toBe(2);
    } finally {
      db.close();
    }
  });
});
