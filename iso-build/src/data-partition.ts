import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { execa } from 'execa';
import { DATA_VOLUME_LABEL } from '@erasure/shared';

/**
 * The ERASURE-DATA partition every image carries after its ISO 9660 part, so that a stick written
 * with `dd` keeps the agent's outbox and settings across a power cut. Empty and bound to no
 * machine: the agent binds it to the first machine that mounts it (engine-agent's data-volume.ts).
 * 32 MiB holds thousands of kept wipe results (a few KB each) and the station's settings and maps;
 * it is what a download grows by.
 */
export const DATA_PARTITION_MIB = 32;

/**
 * The partition slot xorriso appends it in (`-append_partition`): slot 3, after the image's own
 * entries, listed in the hybrid MBR and in the GPT alike. `0x83` is Linux data.
 */
export const DATA_PARTITION_SLOT = 3;
const DATA_PARTITION_TYPE = '0x83';

/**
 * mkfs.ext4 lives in /usr/sbin on Debian, which is not on an ordinary user's PATH (the cloud may
 * run as one): PATH first, then the usual system folders.
 */
export function mkfsExt4(path = process.env['PATH'] ?? ''): string | undefined {
  const dirs = [...path.split(delimiter).filter(Boolean), '/usr/sbin', '/sbin'];
  return dirs.map((dir) => join(dir, 'mkfs.ext4')).find((file) => existsSync(file));
}

/** The mkfs.ext4 arguments for an empty ERASURE-DATA filesystem in `file`: root-owned, no blocks reserved for root (only root writes it). The tests' tiny image uses them too. */
export function mkfsArgs(file: string): string[] {
  return ['-q', '-F', '-t', 'ext4', '-L', DATA_VOLUME_LABEL, '-m', '0', '-E', 'root_owner=0:0', file, `${DATA_PARTITION_MIB}M`];
}

/**
 * A fresh, empty ERASURE-DATA filesystem image in its own temporary folder (a new filesystem UUID
 * per image: two sticks are never mistaken for one). `dispose` removes it.
 */
export async function makeDataPartition(): Promise<{ file: string; dispose: () => void }> {
  const mkfs = mkfsExt4();
  if (!mkfs) throw new Error(`mkfs.ext4 is not installed (apt-get install e2fsprogs): the image's ${DATA_VOLUME_LABEL} partition cannot be made`);
  const dir = mkdtempSync(join(tmpdir(), 'erasure-data-partition-'));
  const dispose = () => rmSync(dir, { recursive: true, force: true });
  const file = join(dir, 'erasure-data.ext4');
  try {
    await execa(mkfs, mkfsArgs(file), { stdout: 'ignore', stderr: 'pipe' });
  } catch (error) {
    dispose();
    throw new Error(`mkfs.ext4 could not make the ${DATA_VOLUME_LABEL} partition: ${(error as { stderr?: string }).stderr?.trim() || (error as Error).message}`);
  }
  return { file, dispose };
}

/** xorriso's (and grub-mkrescue's) arguments that append `file` as the data partition. */
export function appendDataPartitionArgs(file: string): string[] {
  return ['-append_partition', String(DATA_PARTITION_SLOT), DATA_PARTITION_TYPE, file];
}

/**
 * Where an image's data partition lies (bytes from the start), read from its GPT as xorriso
 * reports it; undefined when the image carries none. Tests use it to check the partition and to
 * tell the ISO part of a stick (never written) from its data partition (written by the agent).
 */
export function dataPartitionOf(iso: string): { offset: number; bytes: number } | undefined {
  const report = execFileSync('xorriso', ['-indev', iso, '-report_system_area', 'plain'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  // xorriso names an appended partition "Appended<slot>" in the GPT it writes.
  const entry = new RegExp(`^GPT partname local :\\s+(\\d+)\\s+Appended${DATA_PARTITION_SLOT}$`, 'm').exec(report)?.[1];
  if (!entry) return undefined;
  const range = new RegExp(`^GPT start and size :\\s+${entry}\\s+(\\d+)\\s+(\\d+)$`, 'm').exec(report);
  if (!range) return undefined;
  return { offset: Number(range[1]) * 512, bytes: Number(range[2]) * 512 };
}
