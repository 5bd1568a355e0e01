import { listDrives, openCloud, type AgentEnv } from '../agent.js';
import { reportedSerial } from '../probes/drive-connection.js';
import { guardTarget } from '../safety/guard.js';
import { validatePickedDrive, type PickedValidationOutcome } from '../validate/validate-picked.js';
import type { BootOptions } from './boot-options.js';
import { validateAttachedDrives, validateExitCode, type DriveValidation, type Say } from './validate-mode.js';

const n = (value: number) => value.toLocaleString('en-US');

/** One drive's outcome as the console line says it. */
export function driveValidationOf(outcome: PickedValidationOutcome): DriveValidation {
  // Exhaustive over the kinds: a new kind is a compile error here, not a silent default.
  switch (outcome.kind) {
    case 'unavailable':
      // Fail closed: without the cloud's answer nobody knows what the drive should hold.
      return { kind: 'not-picked', reason: `${outcome.reason}; nothing was read` };
    case 'not_picked':
      return { kind: 'not-picked', reason: outcome.reason };
    case 'already_validated':
      return { kind: 'not-picked', reason: `${outcome.reason} Nothing was read.` };
    case 'validated': {
      const sectors = Math.floor(outcome.read.bytesRead / outcome.read.sectorSize);
      const what = outcome.result === 'approved' ? `every one of ${n(sectors)} sectors holds ${outcome.expected}, as ${outcome.wipeMethod} left it` : (outcome.reason ?? 'data the erasure did not write');
      const recorded = outcome.reported ? 'recorded by the cloud' : `NOT recorded: ${outcome.reportError ?? 'the cloud did not take it'}`;
      return { kind: outcome.result, certificateNumber: outcome.certificateNumber, words: `${what}; ${recorded}` };
    }
  }
}

/**
 * `erasure.mode=validate`, or `erasure.validate=yes` after a headless run: the machine's drives
 * looked up with the cloud through the gateway (device token), the picked ones read and reported.
 * Resolves to 3 if a drive was rejected, else 0.
 */
export async function runValidateMode(env: AgentEnv, options: Pick<BootOptions, 'mode' | 'after'>, say: Say): Promise<number> {
  if (options.mode === 'validate') say(`erasure ${env.version}: validate run, after=${options.after}; nothing is erased`);
  const cloud = await openCloud(env);
  const summary = await validateAttachedDrives(
    {
      drives: async () => (await listDrives(env)).map((d) => ({ device: d.device, serial: reportedSerial(d) })),
      guard: (device, all) => guardTarget(env.sys, device, all),
      validate: async (drive) => driveValidationOf(await validatePickedDrive({ cloud }, drive)),
    },
    say,
  );
  return validateExitCode(summary);
}
