import { gradeHealth, type HealthEvidence, type SelfTestOutcome, type SmartHealth } from '@erasure/shared';
import { ToolSpawnError, type Runner } from '../adapters/runner.js';
import type { EraseOutcome } from '../erase/erase-drive.js';
import { DEFAULT_GRADING, refusedNote, type HealthGrading } from './grading.js';
import { parseSmartHealthText } from './smart-health.js';

/** One SMART read: the facts, or why there are none. */
export type SmartRead = { readonly ok: true; readonly health: SmartHealth } | { readonly ok: false; readonly why: string };

/** smartctl on a slow or failing drive can take long; it never holds up the erase for more. */
const SMART_TIMEOUT_MS = 60_000;

/** Reads the drive's SMART health with `smartctl --json -x` (its exit bits are status, not failure). */
export async function readSmartHealth(run: Runner, device: string): Promise<SmartRead> {
  try {
    const r = await run('smartctl', ['--json', '-x', device], { timeoutMs: SMART_TIMEOUT_MS });
    if (r.timedOut) return { ok: false, why: 'smartctl timed out' };
    const p = parseSmartHealthText(r.stdout);
    return p.ok ? { ok: true, health: p.value } : { ok: false, why: p.reason };
  } catch (error) {
    if (error instanceof ToolSpawnError) return { ok: false, why: 'smartctl is not available' };
    throw error;
  }
}

/**
 * Runs one drive's erase between two SMART reads and grades the erased drive for resale from
 * both reads, the short self-test run before them (where the account enables it) and the
 * overwrite's speed profile, under the account's rule table (`grading`). A drive that was not
 * erased gets no grade (its result already says why); the grade never changes the erase's own
 * outcome, and a failed self-test does not stop the erase.
 */
export async function eraseWithHealth(
  erase: () => Promise<EraseOutcome>,
  read: (() => Promise<SmartRead>) | undefined,
  grading: HealthGrading = DEFAULT_GRADING,
  selfTest?: () => Promise<SelfTestOutcome>,
): Promise<EraseOutcome> {
  const tested = grading.selfTest && selfTest ? await selfTest() : undefined;
  const before = read ? await read() : undefined;
  const outcome = await erase();
  if (!outcome.ok) return outcome;
  const after = read ? await read() : undefined;
  const unavailable = !read ? 'a simulated drive has no SMART' : before?.ok === false && after?.ok === false ? before.why : undefined;
  const evidence: HealthEvidence = {
    ...(before?.ok ? { before: before.health } : {}),
    ...(after?.ok ? { after: after.health } : {}),
    ...(unavailable ? { smartUnavailable: unavailable } : {}),
    ...(outcome.writeProfile ? { profile: outcome.writeProfile } : {}),
    ...(tested ? { selfTest: tested } : {}),
  };
  const verdict = gradeHealth(evidence, grading.rules);
  return { ...outcome, health: { evidence, verdict: grading.refused ? { ...verdict, note: refusedNote(grading.refused) } : verdict } };
}
