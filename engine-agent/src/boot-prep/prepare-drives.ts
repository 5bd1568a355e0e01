import { ToolSpawnError, type Runner, type ToolResult } from '../adapters/runner.js';
import type { UnfinishedSanitize } from '../drives/capabilities.js';
import type { UnfreezeOutcome } from '../drives/freeze-lock.js';
import { unfreezeWouldHelp, type ErasePolicy } from '../drives/plan-erase.js';
import { complaint } from '../erase/driver-kit.js';
import type { DiscoveredDrive } from '../probes/discover-drives.js';
import type { SysfsReader } from '../probes/sysfs-block.js';
import { readBootState, writeBootState, type BootPrepState } from './boot-state.js';

/** `erasure.unfreeze` / the kiosk's setting, with where the value came from (said when it is off). */
export interface UnfreezeSetting {
  /** `always`: suspend once even with no frozen drive (test rigs: no virtual drive can be frozen). */
  readonly mode: 'auto' | 'off' | 'always';
  readonly source: string;
}

/** Ports of the preparation. */
export interface PrepareDeps {
  readonly run: Runner;
  readonly sys: SysfsReader;
  readonly now: () => Date;
  readonly dataDir: string;
  readonly unfreeze: UnfreezeSetting;
  /** Lists and plans the drives (the agent's listDrives) under the policy given. */
  readonly list: (policy: ErasePolicy) => Promise<DiscoveredDrive[]>;
  readonly say: (line: string) => void;
  /**
   * Told right before the machine sleeps, so the kiosk can say the screen goes dark for a few
   * seconds; the suspend waits for it.
   */
  readonly beforeSuspend?: () => Promise<void>;
  /** True while any drive is being written: the machine then never sleeps. */
  readonly writing?: () => boolean;
  /** The RTC alarm: seconds asleep (ERASURE-NOTES: `rtcwake -m mem -s 5`). */
  readonly suspendSeconds?: number;
}

/** What the preparation found and did; `drives` are planned as they stand after it. */
export interface Prepared {
  readonly drives: DiscoveredDrive[];
  readonly unfreeze?: UnfreezeOutcome;
}

/** Runs a tool; a tool that cannot start is an exit code like any other failure. */
async function attempt(run: Runner, tool: string, args: string[], timeoutMs: number): Promise<ToolResult> {
  try {
    return await run(tool, args, { timeoutMs });
  } catch (error) {
    if (!(error instanceof ToolSpawnError)) throw error;
    return { exitCode: null, stdout: '', stderr: error.message, timedOut: false, outputTruncated: false, durationMs: 0 };
  }
}

/** The plan's policy this boot: every process plans a frozen drive with the same removal outcome. */
export async function bootPolicy(sys: SysfsReader, dataDir: string): Promise<ErasePolicy> {
  const state = await readBootState(sys, dataDir);
  return state.unfreeze ? { unfreeze: state.unfreeze } : {};
}

/** One line about a sanitize found running or failed, for the console and the journal. */
export function describeUnfinishedSanitize(device: string, s: UnfinishedSanitize): string {
  if (s.state === 'in_progress') {
    return `${device}: a sanitize is still running on the drive${s.percent !== undefined ? ` (${s.percent}% done)` : ''}, started before this boot; it continues on its own and nothing else is started over it`;
  }
  return `${device}: the drive's last sanitize failed (it is in sanitize failure mode); ${s.exitAllowed ? 'its spec allows leaving failure mode (unrestricted completion)' : 'only a new sanitize that completes ends it'}`;
}

const keyOf = (d: DiscoveredDrive) => d.capabilities.serial ?? d.device;

/**
 * NVMe Sanitize with Exit Failure Mode (SANACT=1), for a drive whose failed sanitize ran in
 * unrestricted completion mode, the one case its spec allows it. Erases nothing.
 */
async function exitFailureMode(deps: PrepareDeps, d: DiscoveredDrive): Promise<string> {
  const r = await attempt(deps.run, 'nvme', ['sanitize', d.device, '--sanact=1'], 120_000);
  return r.exitCode === 0
    ? `${d.device}: left sanitize failure mode (nvme sanitize --sanact=1, Exit Failure Mode); the drive still needs a new erase`
    : `${d.device}: Exit Failure Mode was refused (${complaint(r)}); only a new sanitize ends failure mode`;
}

/**
 * The freeze lock removal: the machine sleeps (`rtcwake -m mem -s N`) and wakes by its RTC
 * alarm; a BIOS freezes drives at power-on, not on resume, so most come back unfrozen.
 */
async function suspendAndResume(deps: PrepareDeps, frozen: readonly DiscoveredDrive[]): Promise<UnfreezeOutcome> {
  const seconds = deps.suspendSeconds ?? 5;
  const which = frozen.length > 0 ? `frozen by the BIOS: ${frozen.map((d) => d.device).join(', ')}` : `no drive is frozen, but ${deps.unfreeze.source} asks for the suspend`;
  deps.say(`${which}; the machine sleeps ${seconds} s and wakes by its clock (the screen goes dark for a few seconds), then the drives are probed again`);
  await deps.beforeSuspend?.();
  // Checked again after the kiosk was told: nothing may have started writing meanwhile.
  if (deps.writing?.()) return { kind: 'skipped', reason: 'an erase started, and the machine never sleeps while a drive is written' };
  const r = await attempt(deps.run, 'rtcwake', ['-m', 'mem', '-s', String(seconds)], (seconds + 120) * 1000);
  const at = deps.now().toISOString();
  return r.exitCode === 0 ? { kind: 'resumed', at } : { kind: 'failed', at, reason: `rtcwake -m mem -s ${seconds}: ${complaint(r)}` };
}

/**
 * Drive preparation at boot, before any erase: drives whose sanitize is still running or failed
 * are said (their plans already refuse a second erase over them), failure mode is left where the
 * spec allows it, and frozen ATA drives that a firmware erase would otherwise take are unfrozen
 * by one suspend and resume, once per boot, then probed again. Each step is recorded in the boot
 * state before the next, so no process of this boot repeats it.
 */
export async function prepareDrives(deps: PrepareDeps): Promise<Prepared> {
  let state: BootPrepState = await readBootState(deps.sys, deps.dataDir);
  const policy = (): ErasePolicy => (state.unfreeze ? { unfreeze: state.unfreeze } : {});
  let drives = await deps.list(policy());

  for (const d of drives) {
    const last = d.capabilities.lastSanitize;
    if (!last) continue;
    deps.say(describeUnfinishedSanitize(d.device, last));
    if (last.state === 'failed' && last.exitAllowed && !state.failureModeExited.includes(keyOf(d))) {
      state = { ...state, failureModeExited: [...state.failureModeExited, keyOf(d)] };
      await writeBootState(deps.dataDir, state);
      deps.say(await exitFailureMode(deps, d));
    }
  }

  const frozen = drives.filter((d) => unfreezeWouldHelp(d.capabilities, policy()));
  if ((frozen.length === 0 && deps.unfreeze.mode !== 'always') || state.unfreeze) return { drives, ...(state.unfreeze ? { unfreeze: state.unfreeze } : {}) };
  let outcome: UnfreezeOutcome;
  if (deps.unfreeze.mode === 'off') outcome = { kind: 'off', source: deps.unfreeze.source };
  else if (deps.writing?.()) outcome = { kind: 'skipped', reason: 'an erase had started, and the machine never sleeps while a drive is written' };
  else {
    // Recorded as failed first: a machine that never wakes from this suspend does not try again on the next start.
    state = { ...state, unfreeze: { kind: 'failed', at: deps.now().toISOString(), reason: 'the machine did not come back from the suspend' } };
    await writeBootState(deps.dataDir, state);
    outcome = await suspendAndResume(deps, frozen);
  }
  state = { ...state, unfreeze: outcome };
  await writeBootState(deps.dataDir, state);
  if (outcome.kind === 'resumed' || outcome.kind === 'failed') deps.say(outcome.kind === 'resumed' ? `woke at ${outcome.at}: probing the drives again` : `freeze lock removal failed: ${outcome.reason}`);
  drives = await deps.list(policy());
  for (const d of drives.filter((x) => frozen.some((f) => f.device === x.device))) {
    const plan = d.plan;
    deps.say(plan.ok ? `${d.device}: ${plan.method} (${plan.why})` : `${d.device}: ${plan.reason}`);
  }
  return { drives, unfreeze: outcome };
}

/** This boot's freeze lock removal in the kiosk's words. */
export function describeUnfreeze(outcome: UnfreezeOutcome | undefined): string {
  switch (outcome?.kind) {
    case undefined:
      return 'Not needed this boot: no frozen drive would get a firmware erase.';
    case 'off':
      return `Off this boot (${outcome.source}): frozen drives are erased by overwrite.`;
    case 'resumed':
      return `The machine slept and woke by itself at ${outcome.at.slice(11, 19)} UTC, then the drives were checked again.`;
    case 'failed':
      return `The suspend failed (${outcome.reason}): frozen drives are erased by overwrite.`;
    case 'skipped':
      return `Not run: ${outcome.reason}.`;
  }
}
