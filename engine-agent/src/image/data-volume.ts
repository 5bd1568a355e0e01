import { mkdir } from 'node:fs/promises';
import { DATA_VOLUME_LABEL } from '@erasure/shared';
import type { Runner } from '../adapters/runner.js';
import type { SystemView } from '../adapters/system-view.js';
import { parseMountinfo } from '../safety/guard.js';

/** Where the agent's data lives for this boot: on the ERASURE-DATA volume, or in the live system's RAM. */
export type DataVolume =
  | { readonly persistent: true; readonly device: string; readonly dataDir: string; readonly alreadyMounted: boolean }
  | { readonly persistent: false; readonly dataDir: string; readonly reason: string };

/** Mount options: the volume holds JSON files only, never anything to run. */
const MOUNT_OPTIONS = 'nosuid,nodev,noexec';

/**
 * Mounts the filesystem labelled ERASURE-DATA (a partition on the boot stick, a small disk in
 * the station) at `dataDir`, so kept wipe results and station settings survive a reboot. The live
 * system's DATA_DIR is otherwise RAM. Several volumes with the label: the first blkid lists wins.
 * No volume, or one that will not mount, is not an error: the station works as before, with its
 * data in memory until delivered, and the returned reason says so for the journal.
 */
export async function mountDataVolume(deps: { run: Runner; sys: SystemView }, dataDir: string): Promise<DataVolume> {
  const mounted = parseMountinfo((await deps.sys.readText('/proc/self/mountinfo')) ?? '').find((m) => m.mountPoint === dataDir);
  if (mounted) return { persistent: true, device: mounted.source, dataDir, alreadyMounted: true };
  // A stick seated at power-on may still be announcing itself; blkid then probes every block
  // device itself (-c /dev/null: no stale cache), so it does not depend on udev's links.
  await deps.run('udevadm', ['settle', '--timeout=10'], { timeoutMs: 15_000 }).catch(() => undefined);
  const found = await deps.run('blkid', ['-c', '/dev/null', '-o', 'device', '-t', `LABEL=${DATA_VOLUME_LABEL}`], { timeoutMs: 30_000 }).catch(() => undefined);
  const device = found?.exitCode === 0 ? found.stdout.split('\n').map((l) => l.trim()).find((l) => l.startsWith('/dev/')) : undefined;
  if (!device) return { persistent: false, dataDir, reason: `no ${DATA_VOLUME_LABEL} volume` };
  await mkdir(dataDir, { recursive: true });
  const r = await deps.run('mount', ['-o', MOUNT_OPTIONS, device, dataDir], { timeoutMs: 60_000 }).catch((error: unknown) => ({ exitCode: null, stderr: (error as Error).message }));
  if (r.exitCode !== 0) return { persistent: false, dataDir, reason: `${DATA_VOLUME_LABEL} (${device}) did not mount: ${r.stderr.trim().split('\n').at(-1) || `exit ${r.exitCode ?? 'by signal'}`}` };
  return { persistent: true, device, dataDir, alreadyMounted: false };
}

/** The journal line for the data volume: where results and settings are kept, and what a reboot loses. */
export function describeDataVolume(v: DataVolume): string {
  if (v.persistent) return `${DATA_VOLUME_LABEL} volume ${v.device} ${v.alreadyMounted ? 'already mounted' : 'mounted'} at ${v.dataDir}: wipe results waiting for delivery and station settings survive a reboot`;
  return `${v.reason}: wipe results waiting for delivery are held in memory (${v.dataDir}) until delivered; they and the station settings are lost if the machine reboots first`;
}
