import { readFile } from 'node:fs/promises';
import { Type } from '@sinclair/typebox';
import { parseUnknown } from '@erasure/shared';
import { writeFileDurably } from '../adapters/durable-file.js';
import type { UnfreezeOutcome } from '../drives/freeze-lock.js';
import type { SysfsReader } from '../probes/sysfs-block.js';

/**
 * What this boot's drive preparation already did, kept in DATA_DIR under the kernel's boot id:
 * the freeze lock removal happens once per boot, and every agent process of the boot (serve,
 * `run`, headless) plans with its outcome. A file from an earlier boot counts as nothing done.
 */
export interface BootPrepState {
  readonly bootId: string;
  readonly unfreeze?: UnfreezeOutcome;
  /** Drives (serial, else device) that were taken out of sanitize failure mode this boot. */
  readonly failureModeExited: readonly string[];
}

const FILE = 'boot-prep.json';

const Stored = Type.Object({
  bootId: Type.String(),
  unfreeze: Type.Optional(
    Type.Union([
      Type.Object({ kind: Type.Literal('off'), source: Type.String() }),
      Type.Object({ kind: Type.Literal('resumed'), at: Type.String() }),
      Type.Object({ kind: Type.Literal('failed'), at: Type.String(), reason: Type.String() }),
      Type.Object({ kind: Type.Literal('skipped'), reason: Type.String() }),
    ]),
  ),
  failureModeExited: Type.Array(Type.String()),
});

/** The kernel's id of this boot; a fixed word where it cannot be read (the state then never expires). */
export async function currentBootId(sys: SysfsReader): Promise<string> {
  return (await sys.readText('/proc/sys/kernel/random/boot_id'))?.trim() || 'unknown-boot';
}

/** This boot's state; a missing, unreadable or earlier boot's file is a fresh start. */
export async function readBootState(sys: SysfsReader, dataDir: string): Promise<BootPrepState> {
  const bootId = await currentBootId(sys);
  const text = await readFile(`${dataDir}/${FILE}`, 'utf8').catch(() => undefined);
  const parsed = text === undefined ? undefined : parseUnknown(Stored, (() => { try { return JSON.parse(text) as unknown; } catch { return undefined; } })());
  if (!parsed?.ok || parsed.value.bootId !== bootId) return { bootId, failureModeExited: [] };
  return parsed.value as BootPrepState;
}

/** Saves the state before the step it records is acted on further (a crash then does not repeat a suspend). */
export async function writeBootState(dataDir: string, state: BootPrepState): Promise<void> {
  await writeFileDurably(dataDir, FILE, JSON.stringify(state, null, 2));
}
