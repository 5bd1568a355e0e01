import { deliverKeptResults, listDrives, machinePolicy, runErase, exitCodeOf, type AgentEnv } from '../agent.js';
import { planErase } from '../drives/plan-erase.js';
import { resultOutbox, type SettledResult } from '../adapters/result-outbox.js';
import { runSummary } from '../cli/run-command.js';
import type { DiscoveredDrive } from '../probes/discover-drives.js';
import { guardTarget } from '../safety/guard.js';
import { prepareDrives } from '../boot-prep/prepare-drives.js';
import type { BootOptions } from './boot-options.js';
import type { ErasePolicy } from '../drives/plan-erase.js';
import { readErasurePolicy } from '../adapters/erasure-policy-client.js';
import { headlessPolicy } from './headless-policy.js';
import { formatVerificationLevel } from '@erasure/shared';
import { driveEstimate } from '../api/state-view.js';
import { JobProgress } from '../session/job-progress.js';
import { progressLine, stageText } from '../session/progress-line.js';
import { hiddenBehind, NOT_ERASED, seenAs, type NotErasedDrive } from '../session/not-erased.js';

/** A plan's time as the console says it: seconds under a minute (estimates are to the second), else whole minutes. */
export function aboutTime(minutes: number): string {
  return minutes < 1 ? `${Math.max(1, Math.round(minutes * 60))} s` : `${Math.round(minutes)} min`;
}

/** Where the headless run writes its lines (the unit sends stdout to the serial console). */
export type Say = (line: string) => void;

/** A rejection that only says the method is for another kind of drive tells the operator nothing. */
const OTHER_FAMILY = /^not an? [\w/]+ drive$/;

const gib = (bytes: number | undefined) => (bytes === undefined ? '?' : `${(bytes / 1024 ** 3).toFixed(1)} GiB`);

/** Guard refusals that mark the machine's own media: shown, never a target, never reported (issue 30 item 7). */
const OWN_MEDIA = new Set(['boot_medium', 'data_volume']);

/** What a headless run does with the drives it sees: erase them, or report each one not erased with why. */
export interface HeadlessSelection {
  readonly targets: DiscoveredDrive[];
  readonly notErased: NotErasedDrive[];
}

/**
 * The drives a headless run erases: those the boot options name (or every disk for `all`), less
 * any the safety guard refuses (the boot medium, anything mounted or held) and any without a
 * usable erase plan under `policy` (the cloud's, with the boot options' choice). Each one left out
 * is said, with why.
 */
export async function headlessTargets(env: AgentEnv, options: Pick<BootOptions, 'devices' | 'methods'>, policy: ErasePolicy, say: Say): Promise<DiscoveredDrive[]> {
  return (await headlessSelection(env, options, policy, say)).targets;
}

/**
 * `headlessTargets`, with every named drive left out also returned as not erased (issue 30 item
 * 7), except the boot medium and the data volume: a refused drive with the guard's or the
 * planner's reason, and each physical disk a RAID controller hides behind a named virtual disk.
 */
export async function headlessSelection(env: AgentEnv, options: Pick<BootOptions, 'devices' | 'methods'>, policy: ErasePolicy, say: Say): Promise<HeadlessSelection> {
  // A method the planner refuses for a drive leaves that drive out, unwritten; `erasure.method=<device>:<id>`
  // gives one drive its own method (already checked against the cloud's policy by headlessPolicy).
  const listed = await listDrives(env, policy);
  const base = options.methods ? await machinePolicy(env) : {};
  const drives = withOwnMethods(listed, options.methods ?? {}, { ...base, ...policy });
  const named = options.devices === 'all' ? drives.map((d) => d.device) : options.devices;
  const targets: DiscoveredDrive[] = [];
  const notErased: NotErasedDrive[] = [];
  // A plan refused because no erase can reach the drive's data (ATA level maximum) says destroy.
  const refused = (d: DiscoveredDrive, reason: string, disposition: 'review' | 'destroy' = 'review') => notErased.push({ ...seenAs(d), reason, disposition });
  for (const device of named) {
    const drive = drives.find((d) => d.device === device);
    if (!drive) {
      say(`skip ${device}: not a drive of this machine`);
      continue;
    }
    // A simulated drive is one of the agent's own files, never a disk: there is nothing to guard,
    // as the erase itself (erase-drive.ts) does not guard it either.
    const verdict = env.config.ERASURE_SIMULATE ? ({ ok: true } as const) : await guardTarget(env.sys, device, named);
    if (!verdict.ok) {
      say(`skip ${device}: ${verdict.reason} (${verdict.code})`);
      if (!OWN_MEDIA.has(verdict.code)) refused(drive, verdict.reason);
      continue;
    }
    notErased.push(...hiddenBehind(drive, notErased));
    if (!drive.plan.ok) {
      say(`skip ${device}: ${drive.plan.reason}`);
      refused(drive, drive.plan.reason, drive.plan.disposition ?? 'review');
      continue;
    }
    targets.push(drive);
  }
  for (const n of notErased) say(`not erased ${n.device}: ${n.model ?? '?'} ${n.serial ?? '?'}: ${n.reason}`);
  return { targets, notErased };
}

/** Kept here for the callers that import it from the headless run; it lives with the other not-erased rules. */
export { hiddenBehind };

/**
 * `erasure.method=<device>:<id>`: each drive named there planned again for its own method, on
 * top of `policy` (the machine's and the boot's); a method the planner refuses leaves that drive
 * without a plan, so it is skipped unwritten with the reason.
 */
export function withOwnMethods(drives: readonly DiscoveredDrive[], methods: Readonly<Record<string, string>>, policy: ErasePolicy): DiscoveredDrive[] {
  return drives.map((d) => (methods[d.device] !== undefined ? { ...d, plan: planErase(d.capabilities, { ...policy, methodId: methods[d.device] }) } : d));
}

/**
 * `erasure.mode=headless`: one session over the chosen drives, progress on the console. Without
 * `erasure.confirm=yes` the session carries no drives, so the machine is only fingerprinted and
 * reported. Resolves to the exit code of `erasure-agent run`.
 */
export async function runHeadless(env: AgentEnv, options: BootOptions, say: Say): Promise<number> {
  say(`erasure ${env.version}: headless run, devices=${options.devices === 'all' ? 'all' : options.devices.join(',')}, confirm=${options.confirm ? 'yes' : 'no'}, after=${options.after}${options.method ? `, method=${options.method}` : ''}${options.methods ? `, ${Object.entries(options.methods).map(([d, m]) => `method ${d}=${m}`).join(', ')}` : ''}${options.verify ? `, verify=${formatVerificationLevel(options.verify)}` : ''}`);
  await deliverEarlierResults(env, say);
  // Before any erase: sanitizes left running or failed are said, frozen drives unfrozen (once per boot).
  if (!env.config.ERASURE_SIMULATE) {
    const unfreeze = { mode: options.unfreeze ?? 'auto', source: `erasure.unfreeze=${options.unfreeze ?? 'auto'}` } as const;
    await prepareDrives({ run: env.run, sys: env.sys, now: env.now, dataDir: env.config.DATA_DIR, unfreeze, list: (policy) => listDrives(env, policy), say });
  }
  // The cloud's policy for this token, as the kiosk and the station erase under: without one, or
  // with a boot option outside it, the run erases nothing (the machine is still reported).
  const policy = headlessPolicy(await readErasurePolicy(env), options);
  say(policy.ok ? policy.words : `refused: ${policy.reason}`);
  const { targets, notErased } = policy.ok ? await headlessSelection(env, options, policy.plan, say) : { targets: [], notErased: [] };
  for (const d of targets) {
    const plan = d.plan.ok ? d.plan : undefined;
    const estimate = plan?.expectedMinutes !== undefined ? `; about ${aboutTime(plan.expectedMinutes)} (${plan.durationSource === 'drive' ? "the drive's own estimate" : 'from its size'})` : '';
    say(`plan ${d.device}: ${d.capabilities.model ?? '?'} ${d.capabilities.serial ?? '?'} ${gib(d.capabilities.sizeBytes)} -> ${plan?.method} (${plan?.label}): ${plan?.why}${estimate}`);
    // Why not the stronger methods: the emulated or bridged drive that lacks a firmware erase says so here.
    for (const r of plan?.rejected ?? []) if (!OTHER_FAMILY.test(r.reason)) say(`  not ${r.method}: ${r.reason}`);
  }
  const drives = options.confirm ? targets : [];
  if (!options.confirm) say('erasure.confirm=yes is not set: fingerprint and report only, nothing is erased');
  const job = new JobProgress(drives.map(driveEstimate), () => performance.now());
  const lastPercent = new Map<string, number>();
  let phase = '';
  const session = await runErase(
    env,
    drives,
    {
      onState: (s) => {
        // Every drive's step is a new state; the console names the phase changes only.
        if (s.phase !== phase) say(`session ${s.phase}${s.phase === 'denied' ? `: ${s.reason}` : ''}`);
        phase = s.phase;
        // Each drive's start and end, as they happen: the drives run side by side.
        for (const device of job.onState(s)) {
          const v = job.view(device);
          if (v) say(v.outcome ? progressLine(v, job.job()) : `start ${device}: ${stageText(v)}`);
        }
      },
      onProgress: (p) => {
        const v = job.update(p);
        if (!v || v.outcome) return;
        const percent = Math.floor(v.percent ?? 0);
        const key = `${p.device}:${p.stage}:${p.pass}`;
        // One line per 10 % per drive and stage: a serial console at 115200 baud must not become the bottleneck.
        if (percent - (lastPercent.get(key) ?? -10) < 10) return;
        lastPercent.set(key, percent);
        say(progressLine(v, job.job()));
      },
    },
    // Every drive seen gets a result: those not erased ride along in the same check-in.
    { ...(options.parallel !== undefined ? { parallel: options.parallel } : {}), ...(options.confirm && notErased.length > 0 ? { notErased } : {}), ...(policy.ok && policy.masters ? { ataMasterPasswords: policy.masters } : {}), ...(policy.ok && policy.grading ? { healthGrading: policy.grading } : {}) },
  );
  const summary = runSummary(session);
  for (const d of summary.drives as Array<Record<string, unknown>>) {
    const how = d.failure_code === NOT_ERASED ? 'NOT ERASED' : `${d.erased ? 'erased' : 'FAILED'} by ${String(d.method)}${d.failure_code ? ` (${String(d.failure_code)})` : ''}`;
    say(`result ${String(d.device)}: ${how}, wipe result ${String(d.wipe_result_id ?? 'not delivered')}, certificate ${String(d.certificate_status ?? '-')}`);
  }
  say(`summary ${JSON.stringify(summary)}`);
  // A policy refusal erased nothing the operator asked for: the run did not do its job.
  const code = !policy.ok && options.confirm && exitCodeOf(session) === 0 ? 2 : exitCodeOf(session);
  say(`headless run finished: exit ${code}`);
  return code;
}

const settledLine = (r: SettledResult) =>
  `kept result ${r.jobId}: ${r.delivered ? `delivered, wipe result ${r.wipeResultId ?? '?'}, certificate ${r.certificateStatus ?? '-'}` : 'refused by the cloud for good, dropped'}`;

/**
 * Wipe results an earlier run could not deliver (the gateway was down, then the power went) are
 * sent before anything else: they were kept on the ERASURE-DATA volume for this.
 */
async function deliverEarlierResults(env: AgentEnv, say: Say): Promise<void> {
  const r = await deliverKeptResults(env, undefined, (settled) => say(settledLine(settled))).catch((error: unknown) => {
    say(`kept wipe results from an earlier run could not be sent yet: ${(error as Error).message}`);
    return undefined;
  });
  if (r && r.delivered + r.refused + r.kept > 0) say(`kept wipe results from an earlier run: ${r.delivered} delivered, ${r.refused} refused, ${r.kept} still waiting`);
}

/** How often a headless machine with results waiting tries the gateway again. */
export const KEPT_RESULTS_RETRY_MS = 30_000;

/**
 * After the run: results still waiting for the gateway are never lost to a power-off. On the
 * ERASURE-DATA volume they survive one, so `erasure.after=poweroff` goes ahead and the next boot
 * sends them. Held in memory they do not, so the machine stays on, trying again every 30 s, until
 * the cloud has them all; `erasure.after=wait` keeps trying either way. Resolves once nothing waits
 * or the machine may power off.
 */
export async function settleKeptResults(env: AgentEnv, opts: { persistent: boolean; after: BootOptions['after']; retryMs?: number }, say: Say): Promise<void> {
  const outbox = resultOutbox(env.config.DATA_DIR);
  let waiting = (await outbox.pending()).length;
  if (waiting === 0) return;
  if (opts.persistent) {
    say(`${waiting} wipe result(s) not delivered yet, kept on the ERASURE-DATA volume: they are sent at the next boot with the gateway reachable${opts.after === 'poweroff' ? '' : ', or as soon as it answers'}`);
    if (opts.after === 'poweroff') return;
  } else {
    say(`${waiting} wipe result(s) not delivered yet and held in memory only (no ERASURE-DATA volume): the machine stays on and tries again every ${Math.round((opts.retryMs ?? KEPT_RESULTS_RETRY_MS) / 1000)} s; powering it off now would lose them`);
  }
  while (waiting > 0) {
    await env.sleep(opts.retryMs ?? KEPT_RESULTS_RETRY_MS);
    await deliverKeptResults(env, undefined, (settled) => say(settledLine(settled))).catch(() => undefined);
    waiting = (await outbox.pending()).length;
  }
  say('every wipe result is delivered');
}
