import { openMedium, type Medium } from './medium.js';
import { writePass } from './overwrite.js';
import { patternLabel, prngPattern, ZERO, type Pattern } from './pattern.js';
import type { EraseProgress, IoTuning, ProgressSink } from './progress.js';
import { verifyPass } from './verify.js';

/** Overwrite schemes: one zero pass, one PRNG pass, or PRNG then zeros (last pass is verified). */
export type OverwriteScheme = 'zero' | 'prng' | 'prng+zero';

/** Result of an overwrite with full verification. */
export interface OverwriteResult {
  readonly verified: boolean;
  readonly passes: number;
  readonly bytesWritten: number;
  readonly sha256: string;
  readonly summary: string;
}

const patternsOf = (scheme: OverwriteScheme): Pattern[] =>
  scheme === 'zero' ? [ZERO] : scheme === 'prng' ? [prngPattern()] : [prngPattern(), ZERO];

/**
 * NIST Clear by overwrite: every pass over the whole medium, then a full read-back of the last
 * pass compared against the regenerated pattern and hashed. The device stays open O_EXCL for the
 * whole run so nothing can mount it half-way. `beforeWrite` sees the opened medium before the
 * first byte is written and stops the run by throwing (a station checks it is still its drive).
 */
export async function overwriteAndVerify(
  path: string,
  scheme: OverwriteScheme,
  options: { onProgress?: ProgressSink | undefined; tuning?: Partial<IoTuning> | undefined; signal?: AbortSignal; beforeWrite?: (medium: Medium) => Promise<void> } = {},
): Promise<OverwriteResult> {
  const medium = await openMedium(path);
  try {
    await options.beforeWrite?.(medium);
    const patterns = patternsOf(scheme);
    // Every report says how many passes there are, so progress reads "pass n of N".
    const sink = options.onProgress;
    const counted = { ...options, onProgress: sink ? (p: EraseProgress) => sink({ ...p, passes: patterns.length }) : undefined };
    let written = 0;
    for (const [index, pattern] of patterns.entries()) {
      const pass = await writePass(medium, pattern, { ...counted, pass: index + 1 });
      written += pass.bytes;
    }
    const last = patterns.at(-1) ?? ZERO;
    const check = await verifyPass(medium, last, counted);
    const where = check.fromMedium ? 'O_DIRECT reads after fdatasync' : 'buffered reads (filesystem without O_DIRECT)';
    const summary = check.matches
      ? `full verification: all ${check.bytes} bytes read back (${where}) match the ${patternLabel(last)} of pass ${patterns.length}`
      : `verification FAILED: ${check.mismatchedChunks} chunk(s) differ from the ${patternLabel(last)}, first at byte ${check.firstMismatchOffset ?? check.bytes}`;
    return { verified: check.matches, passes: patterns.length, bytesWritten: written, sha256: check.sha256, summary };
  } finally {
    await medium.handle.close();
  }
}
