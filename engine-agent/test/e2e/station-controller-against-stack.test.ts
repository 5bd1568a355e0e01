import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { stationBayOf, type Fingerprint, type StationView } from '@erasure/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentEnv } from '../../src/agent.js';
import { stationPorts } from '../../src/adapters/station-ports.js';
import type { StationController } from '../../src/api/station-controller.js';
import { fedStation, idPathOf } from '../support/fed-station.js';
import { loopSkipReason, loopWith, makeWorkDir, removeDir } from '../support/loop.js';
import { startHotswapStack } from '../support/hotswap-stack.js';

const MiB = 1024 * 1024;
const SIZE = 8 * MiB;

/** The chassis this station reports at boot (its DMI identity keys the map). */
const CHASSIS: Fingerprint = { system: { manufacturer: 'Supermicro', product: 'SC846 Bench', serial: 'CHASSIS-E2E-01', uuid: '4c4c4544-0042-3510-8052-b4c04f4e3232' } } as Fingerprint;

/**
 * The station of `serve` against a real cloud and gateway: the wizard maps four slots and saves
 * the map, a "reboot" finds it, drives erase concurrently per bay, and a pulled drive is reported
 * failed with "removed during erase". Drives are loop devices; their insertion and removal are
 * fed as settled udev presences through the watch port (the monitor itself is tested with
 * recorded udevadm output in udev-monitor.test.ts).
 */
describe.skipIf(Boolean(loopSkipReason))('the hotswap station of serve against a real cloud and gateway', () => {
  const work = loopSkipReason ? '' : makeWorkDir('station-serve-');
  let stack: Awaited<ReturnType<typeof startHotswapStack>> | undefined;
  let env: AgentEnv;
  const loops: Array<{ cleanup: () => void; device: string; file: string }> = [];
  const controllers: StationController[] = [];

  /** Builds a station as serve does after unlock, with its presences fed by the test. */
  function station(recordId: string) {
    const views: StationView[] = [];
    const numbers = new Map<string, string>();
    const real = stationPorts(env, { account: 'Station Refurb', recordId, fingerprint: async () => CHASSIS }, { follow: () => undefined, numberOf: (j) => numbers.get(j) });
    const fed = fedStation(real, (v) => views.push(v));
    controllers.push(fed.controller);
    return { ...fed, views };
  }

  const until = async (what: () => boolean, ms = 60_000) => {
    const deadline = Date.now() + ms;
    while (!what()) {
      if (Date.now() > deadline) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const loop = (name: string) => {
    const l = loopWith(work, name, randomBytes(SIZE));
    loops.push(l);
    return l;
  };
  const db = () => new Database(join(work, 'cloud', 'cloud.sqlite'), { readonly: true });

  beforeAll(async () => {
    stack = await startHotswapStack(work, 20);
    env = stack.env;
  }, 300_000);

  afterAll(async () => {
    for (const c of controllers) await c.close();
    await stack?.stop();
    for (const l of loops) l.cleanup();
    if (work) removeDir(work);
  });

  it('opens the mapping wizard when the chassis has no map, and saves the map the operator built', async () => {
    const s = station('CW-20261125-020000');
    await s.controller.start();
    expect(s.controller.view().phase).toBe('wizard');
    const drives = [loop('map1.img'), loop('map2.img'), loop('map3.img'), loop('map4.img')];
    await s.controller.wizardStep({ action: 'grid', rows: 2, columns: 2 });
    for (const [i, d] of drives.entries()) {
      s.insert(i, d);
      await until(() => s.controller.view().wizard?.proposal?.lane === idPathOf(i));
      expect(s.controller.view().wizard?.proposal?.label).toBe(`Bay ${i + 1}`);
      expect(await s.controller.wizardStep({ action: 'accept', ...(i === 3 ? { label: 'Bottom right' } : {}) })).toEqual({ ok: true });
    }
    expect(await s.controller.wizardStep({ action: 'finish' })).toEqual({ ok: true });
    await s.controller.wizardStep({ action: 'name', name: 'Bench backplane' });
    expect(await s.controller.wizardStep({ action: 'save' })).toEqual({ ok: true });
    // Saved, the map becomes the bay view at once; the drives used for mapping wait to be confirmed.
    const view = s.controller.view();
    expect(view.phase).toBe('bays');
    expect(view.map).toEqual({ name: 'Bench backplane', grid: { rows: 2, columns: 2 } });
    expect(view.bays.map((b) => b.label)).toEqual(['Bay 1', 'Bay 2', 'Bay 3', 'Bottom right']);
    await until(() => s.controller.view().bays.every((b) => b.state === 'awaiting_confirmation'));
    for (const d of drives) s.pull(d);
    await until(() => s.controller.view().bays.every((b) => b.state === 'empty'));
    const conn = db();
    try {
      const row = conn.prepare('SELECT name, bays FROM chassis_maps').get() as { name: string; bays: string };
      expect(row.name).toBe('Bench backplane');
      expect((JSON.parse(row.bays) as Array<{ label: string; connector: { grid: unknown } }>).map((b) => [b.label, b.connector.grid])).toEqual([
        ['Bay 1', { row: 0, column: 0, rows: 2, columns: 2 }],
        ['Bay 2', { row: 0, column: 1, rows: 2, columns: 2 }],
        ['Bay 3', { row: 1, column: 0, rows: 2, columns: 2 }],
        ['Bottom right', { row: 1, column: 1, rows: 2, columns: 2 }],
      ]);
    } finally {
      conn.close();
    }
  });

  it('finds the map at the next boot, erases two inserted drives at once and certifies each with its bay label', async () => {
    const s = station('CW-20261125-030000');
    await s.controller.start();
    expect(s.controller.view().phase).toBe('bays');
    const a = loop('a.img');
    const b = loop('b.img');
    s.insert(0, a);
    s.insert(1, b);
    await until(() => ['Bay 1', 'Bay 2'].every((l) => s.bay(l)?.state === 'passed'));
    // Both were erasing at the same time at some point.
    expect(s.views.some((v) => v.bays.filter((x) => x.state === 'erasing' || x.state === 'verifying').length === 2)).toBe(true);
    for (const l of [a, b]) expect(readFileSync(l.file).equals(Buffer.alloc(SIZE))).toBe(true);
    const conn = db();
    try {
      const rows = conn.prepare("SELECT job_id, tool_components, certifiable FROM wipe_results WHERE wipe_status = 'completed'").all() as Array<{ job_id: string; tool_components: string; certifiable: number }>;
      expect(rows.map((r) => stationBayOf(r.tool_components)).sort((x, y) => String(x?.bay).localeCompare(String(y?.bay)))).toEqual([
        { bay: 'Bay 1', chassis: 'Bench backplane' },
        { bay: 'Bay 2', chassis: 'Bench backplane' },
      ]);
      expect(rows.every((r) => r.certifiable === 1)).toBe(true);
      expect(rows.map((r) => r.job_id).sort()).toEqual([s.bay('Bay 1')?.job_id, s.bay('Bay 2')?.job_id].sort());
    } finally {
      conn.close();
    }
  });

  it('reports a drive pulled mid-erase failed with "removed during erase", and erases it when it is seated again', async () => {
    const s = station('CW-20261125-040000');
    await s.controller.start();
    const c = loop('c.img');
    const original = readFileSync(c.file);
    let pulled = false;
    // Pulled the moment its check-in is allowed: the erase is stopped before it writes.
    const stop = setInterval(() => {
      if (!pulled && s.bay('Bay 3')?.state === 'erasing') {
        pulled = true;
        s.pull(c);
      }
    }, 1);
    s.insert(2, c);
    await until(() => s.bay('Bay 3')?.state === 'pulled');
    clearInterval(stop);
    expect(s.bay('Bay 3')).toMatchObject({ state: 'pulled', reason: 'removed during erase', during: 'erasing' });
    const failed = () => {
      const conn = db();
      try {
        return conn.prepare("SELECT verification_result, wipe_status, certifiable FROM wipe_results WHERE job_id = ?").get(s.bay('Bay 3')?.job_id) as Record<string, unknown> | undefined;
      } finally {
        conn.close();
      }
    };
    await until(() => failed() !== undefined);
    expect(failed()).toMatchObject({ wipe_status: 'failed', certifiable: 0, verification_result: expect.stringMatching(/^removed during erase/) });
    expect(readFileSync(c.file).equals(original)).toBe(true);
    s.insert(2, c);
    await until(() => s.bay('Bay 3')?.state === 'passed');
    expect(readFileSync(c.file).equals(Buffer.alloc(SIZE))).toBe(true);
  });

  it('never erases a drive seated in a slot the map does not name', async () => {
    const s = station('CW-20261125-050000');
    await s.controller.start();
    const d = loop('stray.img');
    const original = readFileSync(d.file);
    s.insert(7, d);
    await until(() => s.controller.view().unmapped.length === 1);
    expect(s.controller.view().unmapped).toEqual([{ device: d.device, lane: idPathOf(7) }]);
    await new Promise((r) => setTimeout(r, 300));
    expect(readFileSync(d.file).equals(original)).toBe(true);
  });
});
