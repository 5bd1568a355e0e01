import type { ThroughputProfile, VerificationLevel } from '@erasure/shared';
import { openMedium, type Medium } from './medium.js';
import { writePass } from './overwrite.js';
import { fillPattern, patternLabel, prngPattern, ZERO, type Pattern } from './pattern.js';
import type { EraseProgress, IoTuning, ProgressSink } from './progress.js';
import { planSample, readSample, type SamplePlan, type SampleReadOptions, type SampleReadStats } from './sample-read.js';
import { verifyPass } from './verify.js';

/** Overwrite schemes: one zero pass, one PRNG pass, or PRNG then zeros (last pass is verified). */
export type OverwriteScheme = 'zero' | 'prng' | 'prng+zero';

/** Result of an overwrite with its verification. */
export interface OverwriteResult {
  readonly verified: boolean;
  readonly passes: number;
  readonly bytesWritten: number;
  readonly sha256: string;
  readonly summary: string;
}

/** The passes of a scheme. */
export const patternsOf = (scheme: OverwriteScheme): Pattern[] =>
  scheme === 'zero' ? [ZERO] : scheme === 'prng' ? [prngPattern()] : [prngPattern(), ZERO];

/** Options of an overwrite. */
export interface OverwriteOptions {
  readonly onProgress?: ProgressSink | undefined;
  readonly tuning?: Partial<IoTuning> | undefined;
  readonly signal?: AbortSignal;
  readonly beforeWrite?: (medium: Medium) => Promise<void>;
  /** How much is read back (default `full`: every byte of the last pass). */
  readonly verification?: VerificationLevel;
  /**
   * Test seam: awaited after each pass is written and made durable, before the next pass (or the
   * final verification) starts, so a test reads the device between passes without timing.
   */
  readonly afterPass?: (pass: number, pattern: Pattern) => Promise<void>;
  /** Receives each pass's speed profile (see `PassOptions.onProfile`). */
  readonly onPassProfile?: (pass: number, profile: ThroughputProfile) => void;
}

/** One pass's read-back, in the words the report uses. */
interface PassCheck {
  readonly ok: boolean;
  readonly sha256: string;
  readonly text: string;
}

/** Reads an N % sample of the medium and compares each block with the pattern regenerated for its offset. */
export async function sampleVerify(medium: Medium, pattern: Pattern, percent: number, options: SampleReadOptions = {}): Promise<{ plan: SamplePlan; stats: SampleReadStats }> {
  const plan = planSample(medium.sizeBytes, medium.alignment, percent);
  const expected = Buffer.alloc(plan.blockBytes);
  const stats = await readSample(
    medium,
    plan,
    (block, offset) => {
      const want = expected.subarray(0, block.length);
      fillPattern(pattern, offset, want);
      return block.equals(want);
    },
    options,
  );
  return { plan, stats };
}

async function checkPass(medium: Medium, pattern: Pattern, pass: number, level: VerificationLevel, options: OverwriteOptions): Promise<PassCheck> {
  const label = `the ${patternLabel(pattern)} of pass ${pass}`;
  if (typeof level === 'object' && level.sample < 100) {
    const { plan, stats } = await sampleVerify(medium, pattern, level.sample, options);
    const what = `${level.sample}% sampled verification: ${stats.blocksRead} of ${plan.blocks} blocks of ${plan.blockBytes} bytes, picked at random in each 1/100 of the drive`;
    return stats.bad === 0
      ? { ok: true, sha256: stats.sha256, text: `${what}, all match ${label}` }
      : { ok: false, sha256: stats.sha256, text: `verification FAILED: ${what}; ${stats.bad} differ from ${label}, first at byte ${stats.firstBadOffset ?? 0}` };
  }
  const check = await verifyPass(medium, pattern, options);
  const where = check.fromMedium ? 'O_DIRECT reads after fdatasync' : 'buffered reads (filesystem without O_DIRECT)';
  return check.matches
    ? { ok: true, sha256: check.sha256, text: `full verification: all ${check.bytes} bytes read back (${where}) match ${label}` }
    : { ok: false, sha256: check.sha256, text: `verification FAILED: ${check.mismatchedChunks} chunk(s) differ from ${label}, first at byte ${check.firstMismatchOffset ?? check.bytes}` };
}

/**
 * Clear by overwrite: each pass over the whole medium, then a read-back: of every pass
 * (`every-pass`), or of the last one in full or by an N % sample. The device stays open O_EXCL
 * for the whole run so nothing can mount it half-way. `beforeWrite` sees the opened medium before
 * the first byte is written and stops the run by throwing (a station checks it is still its drive).
 * A pass that fails its read-back ends the run: the drive is not verified.
 */
export async function overwriteAndVerify(path: string, passes: OverwriteScheme | readonly Pattern[], options: OverwriteOptions = {}): Promise<OverwriteResult> {
  const medium = await openMedium(path);
  try {
    await options.beforeWrite?.(medium);
    const patterns = typeof passes === 'string' ? patternsOf(passes) : [...passes];
    if (patterns.length === 0) throw new RangeError('an overwrite needs at least one pass');
    const level = options.verification ?? 'full';
    // Every report says how many passes there are, so progress reads "pass n of N".
    const sink = options.onProgress;
    const counted = { ...options, onProgress: sink ? (p: EraseProgress) => sink({ ...p, passes: patterns.length }) : undefined };
    let written = 0;
    const checked: string[] = [];
    let last: PassCheck | undefined;
    for (const [index, pattern] of patterns.entries()) {
      const onProfile = options.onPassProfile ? (p: ThroughputProfile) => options.onPassProfile?.(index + 1, p) : undefined;
      const pass = await writePass(medium, pattern, { ...counted, pass: index + 1, ...(onProfile ? { onProfile } : {}) });
      written += pass.bytes;
      await options.afterPass?.(index + 1, pattern);
      if (level === 'every-pass' || index === patterns.length - 1) {
        last = await checkPass(medium, pattern, index + 1, level === 'every-pass' ? 'full' : level, counted);
        checked.push(last.text);
        if (!last.ok) return { verified: false, passes: index + 1, bytesWritten: written, sha256: last.sha256, summary: checked.join('; ') };
      }
    }
    const final = last as PassCheck;
    const summary = level === 'every-pass' ? `every pass verified in full: ${checked.join('; ')}` : final.text;
    return { verified: true, passes: patterns.length, bytesWritten: written, sha256: final.sha256, summary };
  } finally {
    await medium.handle.close();
  }
}
