import { basename } from 'node:path';
import type { Fingerprint } from '@erasure/shared';
import type { AgentEnv } from '../agent.js';
import { chassisFingerprint, deviceOfEntry } from '../station/chassis-storage.js';
import { resolveLane, type Lane } from '../station/lanes.js';

/** The lane of a block device, from udev's `ID_PATH` as the station's own events give it; undefined when udev names none. */
export async function laneOfDevice(env: Pick<AgentEnv, 'run' | 'sys'>, device: string): Promise<Lane | undefined> {
  const r = await env.run('udevadm', ['info', '--query=property', `--name=${device}`], { timeoutMs: 10_000 }).catch(() => undefined);
  if (!r || r.exitCode !== 0) return undefined;
  const idPath = r.stdout.split('\n').find((l) => l.startsWith('ID_PATH='))?.slice('ID_PATH='.length).trim();
  return idPath ? resolveLane(env.sys, basename(device), idPath) : undefined;
}

/** A station's chassis fingerprint, kept in step with what it knows of its bays. */
export interface StationChassis {
  /** The boot's fingerprint as the chassis's: its storage without drives in hot-swap slots or mapped bays. */
  fingerprint(collected: Fingerprint): Promise<Fingerprint>;
  /**
   * The chassis map is known (looked up, or about to be saved): its bays, and only these, leave
   * the storage from now on besides the hot-swap slots. True when that changes the storage the
   * boot's fingerprint gave so far (a drive the asset report listed sits in a bay), so the report
   * is worth sending again.
   */
  mapKnown(lanes: readonly string[]): Promise<boolean>;
}

/**
 * The chassis of `serve --station`. Lanes are resolved once, for the drives of the boot's
 * fingerprint (collected once per boot): device names move as drives come and go, the snapshot's
 * slots do not.
 */
export function stationChassis(env: Pick<AgentEnv, 'run' | 'sys'>): StationChassis {
  let collected: Fingerprint | undefined;
  let lanes: Promise<Map<string, Lane | undefined>> | undefined;
  let bays: ReadonlySet<string> = new Set();
  const lanesOf = (fp: Fingerprint) => {
    const devices = (fp.storage ?? []).flatMap((d) => deviceOfEntry(d) ?? []);
    return (lanes ??= Promise.all(devices.map(async (device) => [device, await laneOfDevice(env, device)] as const)).then((pairs) => new Map(pairs)));
  };
  const refine = async (fp: Fingerprint, mapped: ReadonlySet<string>) => {
    const known = await lanesOf(fp);
    return chassisFingerprint(fp, (device) => known.get(device), mapped);
  };
  return {
    async fingerprint(fp) {
      collected ??= fp;
      return refine(fp, bays);
    },
    async mapKnown(mapped) {
      const storage = async () => (collected ? JSON.stringify((await refine(collected, bays)).storage ?? []) : '');
      const before = await storage();
      bays = new Set(mapped);
      return (await storage()) !== before;
    },
  };
}
