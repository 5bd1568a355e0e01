import { createInterface } from 'node:readline/promises';
import { exitCodeOf, runErase, selectDrives, type AgentEnv } from '../agent.js';
import { ERASE_METHODS, type EraseMethod } from '../drives/erase-methods.js';
import type { Session } from '../session/types.js';
import { driveEstimate } from '../api/state-view.js';
import { JobProgress } from '../session/job-progress.js';
import { progressLine } from '../session/progress-line.js';

/** Options of `erasure-agent run`. */
export interface RunOptions {
  readonly devices: readonly string[];
  readonly method?: string;
  /** `--parallel N`: at most N drives erased at once. */
  readonly parallel?: string;
  readonly yes: boolean;
  readonly json: boolean;
}

/** The JSON document `run --json` prints. */
export function runSummary(s: Session): Record<string, unknown> {
  const reports = s.phase === 'done' || s.phase === 'failed' ? s.reports : [];
  return {
    phase: s.phase,
    ...(s.phase === 'denied' ? { at: s.at, reason: s.reason } : {}),
    ...(s.phase === 'failed' ? { reason: s.reason } : {}),
    drives: reports.map((r) => ({
      device: r.outcome.device,
      method: r.outcome.method,
      erased: r.outcome.ok,
      refused: r.outcome.refused,
      ...(r.outcome.failureCode ? { failure_code: r.outcome.failureCode } : {}),
      job_id: r.jobId,
      delivered: r.delivered,
      ...(r.wipeResultId ? { wipe_result_id: r.wipeResultId, certificate_status: r.certificateStatus } : {}),
      ...(r.outcome.verificationHash ? { verification_hash: r.outcome.verificationHash } : {}),
      verification: r.outcome.verification,
    })),
  };
}

/** `run`: one headless session; resolves to the process exit code. */
export async function runCommand(env: AgentEnv, opts: RunOptions): Promise<number> {
  if (opts.devices.length === 0) {
    process.stderr.write('run: name the drives to erase with --device PATH (nothing is erased implicitly)\n');
    return 1;
  }
  if (opts.method !== undefined && !(ERASE_METHODS as readonly string[]).includes(opts.method)) {
    process.stderr.write(`run: unknown --method ${opts.method}; one of: ${ERASE_METHODS.join(', ')}\n`);
    return 1;
  }
  if (opts.parallel !== undefined && !/^[1-9]\d*$/.test(opts.parallel)) {
    process.stderr.write(`run: --parallel takes a whole number of drives (1 or more), not ${opts.parallel}\n`);
    return 1;
  }
  const selection = await selectDrives(env, opts.devices, opts.method as EraseMethod | undefined);
  if (!selection.ok) {
    process.stderr.write(`run: ${selection.reason}; nothing was erased\n`);
    // A device that is not on this machine is a mistake in the call (1); a drive that is there
    // but has no usable erase method is a drive that failed (3, CONTRACT.md).
    return selection.unknownDevice ? 1 : 3;
  }
  if (!opts.yes) {
    const rl = createInterface({ input: process.stdin, output: process.stderr });
    const list = selection.drives.map((d) => `  ${d.device}  ${d.capabilities.model ?? '?'}  ${d.capabilities.serial ?? '?'}  ${d.plan.ok ? d.plan.technique : ''}`).join('\n');
    const answer = await rl.question(`About to ERASE:\n${list}\nType "yes" to continue: `);
    rl.close();
    if (answer.trim() !== 'yes') {
      process.stderr.write('run: not confirmed; nothing was erased\n');
      return 1;
    }
  }
  let phase = '';
  const job = new JobProgress(selection.drives.map(driveEstimate), () => performance.now());
  const said = new Map<string, number>();
  const say = (line: string) => void (opts.json ? undefined : process.stderr.write(`${line}\n`));
  const session = await runErase(
    env,
    selection.drives,
    {
      onState: (s) => {
        // Each drive's change is a new state; the console names only the phase changes.
        if (s.phase !== phase) say(`[session] ${s.phase}`);
        phase = s.phase;
        for (const device of job.onState(s)) {
          const v = job.view(device);
          if (v?.outcome) say(progressLine(v, job.job()));
        }
      },
      onProgress: (p) => {
        const v = job.update(p);
        // One line per drive every 5 s at most: enough to follow, not a flood.
        const now = performance.now();
        if (!v || v.outcome || now - (said.get(p.device) ?? -Infinity) < 5000) return;
        said.set(p.device, now);
        say(progressLine(v, job.job()));
      },
    },
    opts.parallel !== undefined ? { parallel: Number(opts.parallel) } : {},
  );
  const summary = runSummary(session);
  process.stdout.write(opts.json ? `${JSON.stringify(summary)}\n` : `${JSON.stringify(summary, null, 2)}\n`);
  return exitCodeOf(session);
}
