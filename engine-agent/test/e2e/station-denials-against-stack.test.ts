import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Fingerprint, StationBayView } from '@erasure/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentEnv } from '../../src/agent.js';
import { stationPorts } from '../../src/adapters/station-ports.js';
import type { StationController } from '../../src/api/station-controller.js';
import { connectorOf, fedStation, idPathOf } from '../support/fed-station.js';
import { loopSkipReason, loopWith, makeWorkDir, removeDir } from '../support/loop.js';
import { stationAgentEnv } from '../support/hotswap-stack.js';
import { cloudCli, startCloudStack, stopAndWait, type CloudStack } from '../support/stack.js';

const MiB = 1024 * 1024;
const SIZE = 4 * MiB;

/** The chassis the stations report (its DMI identity keys each account's map). */
const CHASSIS: Fingerprint = { system: { manufacturer: 'Supermicro', product: 'SC846 Bench', serial: 'CHASSIS-DENY-01', uuid: '4c4c4544-0042-3510-8052-b4c04f4e3233' } } as Fingerprint;

/**
 * Spec: a bay's denial at check-in (quota, revoked, inactive) fails the bay with the drive
 * untouched; an unreachable gateway keeps it waiting, untouched, until the gateway is back. Each case runs a station of `serve` (the real controller, ports and
 * bay runner, product hotswap) against a real cloud and gateway, with its own account and token
 * so no case depends on another; the denial is brought about the way it happens in the field.
 * Drives are loop devices fed as settled udev presences, as in station-controller-against-stack.
 * The cloud and gateway are the built binaries.
 */
describe.skipIf(Boolean(loopSkipReason))('station bays denied at check-in, against a real cloud and gateway', () => {
  const work = loopSkipReason ? '' : makeWorkDir('station-deny-');
  const loops: Array<{ cleanup: () => void }> = [];
  const controllers: StationController[] = [];
  let stack: CloudStack;

  beforeAll(async () => {
    stack = await startCloudStack(work);
  }, 180_000);

  afterAll(async () => {
    for (const c of controllers) await c.close();
    await stack?.stop();
    for (const l of loops) l.cleanup();
    if (work) removeDir(work);
  });

  /**
   * A station of its own account and hotswap token, its chassis map (Bay 1, Bay 2) saved through
   * the gateway, started as serve starts it once the boot is unlocked, under auto-start.
   */
  async function stationOf(name: string, opts: { quota?: number; gatewayUrl?: string; cloudWaitMs?: number } = {}) {
    const dir = join(work, name);
    mkdirSync(dir, { recursive: true });
    const { accountId, jti } = stack.mintToken(join(dir, 'device-token'), { account: name, product: 'hotswap', quota: opts.quota });
    const base = stationAgentEnv(opts.gatewayUrl ?? stack.gatewayUrl, dir);
    const env = opts.cloudWaitMs ? { ...base, limits: { ...base.limits!, cloudWaitBaseMs: opts.cloudWaitMs, cloudWaitCapMs: opts.cloudWaitMs } } : base;
    const real = stationPorts(env, { account: name, recordId: 'CW-20261125-060000', fingerprint: async () => CHASSIS }, { follow: () => undefined, numberOf: () => undefined });
    expect(await real.saveMap({ name: 'Deny bench', bays: [0, 1].map((slot) => ({ lane: idPathOf(slot), label: `Bay ${slot + 1}`, connector: connectorOf(slot) })) })).toEqual({ ok: true });
    const { controller, insert, bay } = fedStation(real);
    controllers.push(controller);
    await controller.start();
    expect(controller.view().phase).toBe('bays');
    return {
      env,
      accountId,
      jti,
      bay,
      /** Seats a new loop-device drive of random bytes in a slot (an insertion: udev `add`). */
      insert(slot: number): { device: string; file: string; original: Buffer } {
        const original = randomBytes(SIZE);
        const l = loopWith(dir, `slot${slot}.img`, original);
        loops.push(l);
        insert(slot, l);
        return { device: l.device, file: l.file, original };
      },
    };
  }

  const until = async (what: () => boolean, ms = 45_000) => {
    const deadline = Date.now() + ms;
    while (!what()) {
      if (Date.now() > deadline) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const settledBay = (b: StationBayView | undefined) => b?.state === 'passed' || b?.state === 'failed' || b?.state === 'pulled';

  /** The account's wipe results as the cloud stored them. */
  const wipeResultsOf = (accountId: string) => {
    const db = new Database(stack.cloudDb, { readonly: true });
    try {
      return db.prepare('SELECT w.job_id, w.wipe_status, w.certifiable FROM wipe_results w JOIN accounts a ON a.id = w.account_id WHERE a.public_id = ?').all(accountId) as Array<{ job_id: string; wipe_status: string; certifiable: number }>;
    } finally {
      db.close();
    }
  };
  /** Wipe results the agent still holds for delivery (none, for a drive never checked in). */
  const keptResults = (env: AgentEnv) => (existsSync(join(env.config.DATA_DIR, 'outbox')) ? readdirSync(join(env.config.DATA_DIR, 'outbox')) : []);

  it("fails the bay with quota_exceeded once the token's quota is spent, the drive untouched and no result certified for it", async () => {
    const s = await stationOf('Quota Refurb', { quota: 1 });
    const first = s.insert(0);
    await until(() => settledBay(s.bay('Bay 1')));
    expect(s.bay('Bay 1')?.state).toBe('passed');
    const second = s.insert(1);
    await until(() => settledBay(s.bay('Bay 2')));
    expect(s.bay('Bay 2')).toMatchObject({ state: 'failed', reason: 'quota_exceeded', untouched: true, drive: { device: second.device } });
    expect(readFileSync(second.file).equals(second.original)).toBe(true);
    // The one result is the first drive's, checked in before the quota ran out.
    expect(wipeResultsOf(s.accountId)).toEqual([{ job_id: s.bay('Bay 1')?.job_id, wipe_status: 'completed', certifiable: 1 }]);
    expect(readFileSync(first.file).equals(Buffer.alloc(SIZE))).toBe(true);
    expect(keptResults(s.env)).toEqual([]);
  }, 90_000);

  it('fails the bay with revoked when the token is revoked while the station runs, the drive untouched and no result certified', async () => {
    const s = await stationOf('Revoked Refurb');
    cloudCli(stack.cloudEnv, ['admin', 'set-token-status', '--jti', s.jti, '--status', 'revoked']);
    const d = s.insert(0);
    await until(() => settledBay(s.bay('Bay 1')));
    expect(s.bay('Bay 1')).toMatchObject({ state: 'failed', reason: 'revoked', untouched: true, drive: { device: d.device } });
    expect(readFileSync(d.file).equals(d.original)).toBe(true);
    expect(wipeResultsOf(s.accountId)).toEqual([]);
    expect(keptResults(s.env)).toEqual([]);
  }, 60_000);

  it('fails the bay with account_inactive when the account is made inactive while the station runs, the drive untouched and no result certified', async () => {
    const s = await stationOf('Lapsed Refurb');
    cloudCli(stack.cloudEnv, ['admin', 'set-account-active', '--account', s.accountId, '--active', 'false']);
    const d = s.insert(0);
    await until(() => settledBay(s.bay('Bay 1')));
    expect(s.bay('Bay 1')).toMatchObject({ state: 'failed', reason: 'account_inactive', untouched: true, drive: { device: d.device } });
    expect(readFileSync(d.file).equals(d.original)).toBe(true);
    expect(wipeResultsOf(s.accountId)).toEqual([]);
    expect(keptResults(s.env)).toEqual([]);
  }, 60_000);

  // Issue 32, lights-out: the drive waits for the service instead of failing, and is erased and
  // certified once the gateway is back, checked in once.
  it('keeps a bay waiting, the drive untouched, while the gateway is away, then checks it in, erases and certifies it once the gateway is back', async () => {
    const own = await stack.startGateway();
    const port = Number(new URL(own.url).port);
    const s = await stationOf('Offline Refurb', { gatewayUrl: own.url, cloudWaitMs: 1_000 });
    await stopAndWait(own);
    const d = s.insert(0);
    await until(() => (s.bay('Bay 1')?.waiting_for_cloud?.attempts ?? 0) >= 2);
    expect(s.bay('Bay 1')).toMatchObject({ state: 'checking_in', drive: { device: d.device }, can: { cancel: true }, waiting_for_cloud: { reason: expect.stringMatching(/^gateway unreachable/) } });
    expect(readFileSync(d.file).equals(d.original)).toBe(true);
    expect(wipeResultsOf(s.accountId)).toEqual([]);
    const back = await stack.startGateway(port);
    try {
      await until(() => settledBay(s.bay('Bay 1')), 90_000);
      expect(s.bay('Bay 1')).toMatchObject({ state: 'passed', drive: { device: d.device } });
      expect(s.bay('Bay 1')).not.toHaveProperty('waiting_for_cloud');
      expect(wipeResultsOf(s.accountId)).toEqual([{ job_id: s.bay('Bay 1')?.job_id, wipe_status: 'completed', certifiable: 1 }]);
      expect(readFileSync(d.file).equals(Buffer.alloc(SIZE))).toBe(true);
      expect(keptResults(s.env)).toEqual([]);
    } finally {
      await stopAndWait(back);
    }
  }, 150_000);
});
