import type { GuardVerdict } from '../safety/guard.js';

/** Where the validate run writes its lines (the unit sends stdout to the serial console). */
export type Say = (line: string) => void;

/** A drive of this machine the cloud is asked about. */
export interface AttachedDrive {
  readonly device: string;
  readonly serial: string | undefined;
}

/** What became of one drive: read and reported, or not read, and why in plain words. */
export type DriveValidation =
  | { readonly kind: 'approved' | 'rejected'; readonly certificateNumber: string; readonly words: string }
  | { readonly kind: 'not-picked'; readonly reason: string };

export interface ValidateRunDeps {
  /** The machine's disks. */
  readonly drives: () => Promise<readonly AttachedDrive[]>;
  /** The safety guard: the boot medium and anything mounted or held are never read for a customer's record. */
  readonly guard: (device: string, all: readonly string[]) => Promise<GuardVerdict>;
  /** Asks the cloud whether the drive was picked; if so reads it in full and reports the outcome. */
  readonly validate: (drive: { device: string; serial: string }) => Promise<DriveValidation>;
}

export interface ValidateRunSummary {
  readonly approved: number;
  readonly rejected: number;
  readonly notPicked: number;
}

/**
 * `erasure.mode=validate` (and `erasure.validate=yes` after a headless run): every drive of this
 * machine but the boot medium and anything mounted is looked up with the cloud by its serial; each
 * one picked for validation is read in full and its outcome reported (R2v3 Appendix B, issue 29).
 * One line per drive in plain words. Fails closed: a drive the cloud did not answer for is not
 * read, and the line says so.
 */
export async function validateAttachedDrives(deps: ValidateRunDeps, say: Say): Promise<ValidateRunSummary> {
  const drives = await deps.drives();
  const all = drives.map((d) => d.device);
  const asked: Array<{ device: string; serial: string }> = [];
  let notPicked = 0;
  for (const d of drives) {
    const verdict = await deps.guard(d.device, all);
    if (!verdict.ok) {
      say(`validate: skip ${d.device}: ${verdict.reason} (${verdict.code})`);
      continue;
    }
    if (!d.serial) {
      say(`validate ${d.device}: not picked: the drive reports no serial number, so the cloud cannot match it to a certificate; nothing was read`);
      notPicked += 1;
      continue;
    }
    asked.push({ device: d.device, serial: d.serial });
  }
  // Said before any drive is looked up or read: what happens next is the reads.
  say(`validate: looking up ${asked.length} drive(s) with the cloud${asked.length > 0 ? `: ${asked.map((d) => `${d.serial} (${d.device})`).join(', ')}` : ''}`);
  let approved = 0;
  let rejected = 0;
  for (const d of asked) {
    const outcome = await deps.validate(d).catch((error: unknown): DriveValidation => ({ kind: 'not-picked', reason: `the validation stopped: ${(error as Error).message}` }));
    if (outcome.kind === 'not-picked') {
      notPicked += 1;
      say(`validate ${d.serial}: not picked: ${outcome.reason}`);
      continue;
    }
    if (outcome.kind === 'approved') approved += 1;
    else rejected += 1;
    say(`validate ${d.serial}: ${outcome.kind} (${d.device}, certificate ${outcome.certificateNumber}): ${outcome.words}`);
  }
  say(`validate: finished: ${approved} approved, ${rejected} rejected, ${notPicked} not picked or not read`);
  return { approved, rejected, notPicked };
}

/** The run's exit code, as `erasure-agent validate` answers per drive: 3 if any drive was rejected. */
export const validateExitCode = (s: ValidateRunSummary): number => (s.rejected > 0 ? 3 : 0);
