import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DATA_VOLUME_LABEL } from '@erasure/shared';
import { writeFileDurably } from '../adapters/durable-file.js';
import type { Runner } from '../adapters/runner.js';
import type { SystemView } from '../adapters/system-view.js';
import { parseMountinfo } from '../safety/guard.js';

/** Where the agent's data lives for this boot: on the ERASURE-DATA volume, or in the live system's RAM. */
export type DataVolume =
  | { readonly persistent: true; readonly device: string; readonly dataDir: string; readonly alreadyMounted: boolean; readonly boundNow?: true; readonly throughLoop?: true }
  | { readonly persistent: false; readonly dataDir: string; readonly reason: string };

/** Mount options: the volume holds JSON files only, never anything to run. */
const MOUNT_OPTIONS = 'nosuid,nodev,noexec';

/** The file on the volume that binds it to one machine. */
export const BINDING_FILE = 'station.json';

/** The DMI system UUID (SMBIOS type 1); readable by root only. */
export const PRODUCT_UUID = '/sys/class/dmi/id/product_uuid';

/** What `station.json` holds. */
interface Binding {
  readonly machine_uuid: string;
  readonly bound_at: string;
}

/**
 * This machine's DMI system UUID, lower-case; undefined when it cannot be read or is one of the
 * placeholders firmware leaves when it has none (all zeros, all Fs), which would bind every such
 * machine to the same volume.
 */
export async function machineUuid(sys: SystemView): Promise<string | undefined> {
  const uuid = (await sys.readText(PRODUCT_UUID))?.trim().toLowerCase();
  if (!uuid || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(uuid)) return undefined;
  return /^[0-]+$/.test(uuid) || /^[f-]+$/.test(uuid) ? undefined : uuid;
}

/**
 * Whether the volume mounted at `dir` is this machine's. Bound to it (`station.json` names its
 * UUID): yes. Bound to another machine, or its binding unreadable: no. Not bound: bound to this
 * machine now if it holds nothing yet (a fresh mkfs has only lost+found); a volume that holds
 * data (a retired station's outbox and settings) is never taken over.
 */
async function checkBinding(dir: string, machine: string, now: Date): Promise<{ ok: true; boundNow: boolean } | { ok: false; reason: string }> {
  let text: string | undefined;
  try {
    text = await readFile(join(dir, BINDING_FILE), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') return { ok: false, reason: `its ${BINDING_FILE} cannot be read (${code ?? (error as Error).message})` };
  }
  if (text === undefined) {
    const held = (await readdir(dir)).filter((name) => name !== 'lost+found');
    if (held.length > 0) return { ok: false, reason: `it is bound to no machine but already holds data (${held.sort().join(', ')}): a volume from another station is never taken over; move its data off, or erase it, to use it here` };
    const binding: Binding = { machine_uuid: machine, bound_at: now.toISOString() };
    try {
      await writeFileDurably(dir, BINDING_FILE, `${JSON.stringify(binding)}\n`);
    } catch (error) {
      return { ok: false, reason: `it could not be bound to this machine: ${(error as Error).message}` };
    }
    return { ok: true, boundNow: true };
  }
  let bound: unknown;
  try {
    bound = JSON.parse(text);
  } catch {
    return { ok: false, reason: `its ${BINDING_FILE} is not valid JSON` };
  }
  const uuid = typeof bound === 'object' && bound !== null ? (bound as Record<string, unknown>).machine_uuid : undefined;
  if (typeof uuid !== 'string') return { ok: false, reason: `its ${BINDING_FILE} names no machine` };
  if (uuid.toLowerCase() !== machine) return { ok: false, reason: `it is bound to another machine (system UUID ${uuid}, this one is ${machine})` };
  return { ok: true, boundNow: false };
}

/** Unmounts a volume that turned out not to be this machine's; lazily when something holds it. */
async function unmount(run: Runner, dir: string): Promise<string | undefined> {
  const r = await run('umount', [dir], { timeoutMs: 60_000 }).catch(() => undefined);
  if (r?.exitCode === 0) return undefined;
  const lazy = await run('umount', ['-l', dir], { timeoutMs: 60_000 }).catch(() => undefined);
  return lazy?.exitCode === 0 ? undefined : `; it could not be unmounted again from ${dir}`;
}

/**
 * Mounts the filesystem labelled ERASURE-DATA (a partition on the boot stick, a small disk in
 * the station) at `dataDir`, so kept wipe results and station settings survive a reboot. The live
 * system's DATA_DIR is otherwise RAM. Fail closed, since a drive seated in a bay at boot may be
 * another station's data disk waiting to be erased: only when exactly one volume carries the
 * label, and only when it is bound to this machine (`station.json`, the DMI system UUID; a fresh,
 * empty volume is bound on its first mount). No volume, several, another machine's, or one that
 * will not mount is not an error: the station works as before, with its data in memory until
 * delivered, and the returned reason says why for the journal.
 */
export async function mountDataVolume(deps: { run: Runner; sys: SystemView; now?: () => Date }, dataDir: string): Promise<DataVolume> {
  const mounted = parseMountinfo((await deps.sys.readText('/proc/self/mountinfo')) ?? '').find((m) => m.mountPoint === dataDir);
  if (mounted) return { persistent: true, device: mounted.source, dataDir, alreadyMounted: true };
  // A stick seated at power-on may still be announcing itself; blkid then probes every block
  // device itself (-c /dev/null: no stale cache), so it does not depend on udev's links.
  await deps.run('udevadm', ['settle', '--timeout=10'], { timeoutMs: 15_000 }).catch(() => undefined);
  const found = await deps.run('blkid', ['-c', '/dev/null', '-o', 'device', '-t', `LABEL=${DATA_VOLUME_LABEL}`], { timeoutMs: 30_000 }).catch(() => undefined);
  const devices = [...new Set(found?.exitCode === 0 ? found.stdout.split('\n').map((l) => l.trim()).filter((l) => l.startsWith('/dev/')) : [])];
  const device = devices[0];
  if (!device) return { persistent: false, dataDir, reason: `no ${DATA_VOLUME_LABEL} volume` };
  if (devices.length > 1) return { persistent: false, dataDir, reason: `${devices.length} ${DATA_VOLUME_LABEL} volumes (${devices.join(', ')}), none mounted: which one is this station's cannot be told (another station's data disk may be seated)` };
  const machine = await machineUuid(deps.sys);
  if (!machine) return { persistent: false, dataDir, reason: `${DATA_VOLUME_LABEL} (${device}) not mounted: this machine's DMI system UUID (${PRODUCT_UUID}) is unreadable or a placeholder, so the volume cannot be bound to it` };
  await mkdir(dataDir, { recursive: true });
  const mount = (options: string) => deps.run('mount', ['-o', options, device, dataDir], { timeoutMs: 60_000 }).catch((error: unknown) => ({ exitCode: null, stderr: (error as Error).message }));
  const direct = await mount(MOUNT_OPTIONS);
  // The stick's own partition (every image carries one) cannot be mounted as it is: live-boot has
  // the whole stick mounted (its ISO 9660 part starts at sector 0), and the kernel refuses to claim
  // a partition of a claimed disk. A loop device over the partition is no such claim (mount's
  // `loop` option; detached again when unmounted).
  const throughLoop = direct.exitCode !== 0;
  const r = throughLoop ? await mount(`loop,${MOUNT_OPTIONS}`) : direct;
  if (r.exitCode !== 0) return { persistent: false, dataDir, reason: `${DATA_VOLUME_LABEL} (${device}) did not mount: ${mountError(direct)}; through a loop device: ${mountError(r)}` };
  const binding = await checkBinding(dataDir, machine, (deps.now ?? (() => new Date()))()).catch((error: unknown) => ({ ok: false as const, reason: `its binding could not be checked: ${(error as Error).message}` }));
  if (!binding.ok) return { persistent: false, dataDir, reason: `${DATA_VOLUME_LABEL} (${device}) not used: ${binding.reason}${(await unmount(deps.run, dataDir)) ?? ''}` };
  return { persistent: true, device, dataDir, alreadyMounted: false, ...(binding.boundNow ? { boundNow: true as const } : {}), ...(throughLoop ? { throughLoop: true as const } : {}) };
}

/** mount's own words, without the hint to read dmesg it adds to every failure. */
function mountError(r: { exitCode: number | null; stderr: string }): string {
  const lines = r.stderr.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('dmesg(1) may have more information'));
  return lines.join(' ') || `exit ${r.exitCode ?? 'by signal'}`;
}

/** Whether a volume is mounted at `dataDir` (image-env mounted ERASURE-DATA there): kept results then survive a power cut. */
export async function dataVolumeMounted(sys: SystemView, dataDir: string): Promise<boolean> {
  return parseMountinfo((await sys.readText('/proc/self/mountinfo')) ?? '').some((m) => m.mountPoint === dataDir);
}

/** The journal line for the data volume: where results and settings are kept, and what a reboot loses. */
export function describeDataVolume(v: DataVolume): string {
  if (v.persistent) return `${DATA_VOLUME_LABEL} volume ${v.device} ${v.alreadyMounted ? 'already mounted' : 'mounted'} at ${v.dataDir}${v.throughLoop ? ' through a loop device (a partition of the boot stick)' : ''}${v.boundNow ? ' (bound to this machine now)' : ''}: wipe results waiting for delivery and station settings survive a reboot`;
  return `${v.reason}: wipe results waiting for delivery are held in memory (${v.dataDir}) until delivered; they and the station settings are lost if the machine reboots first`;
}
