import type { Runner } from '../adapters/runner.js';
import { ToolSpawnError } from '../adapters/runner.js';
import { PSID_ELSEWHERE_STEP, PSID_PATTERN } from '../drives/sed-lock.js';
import { probeSelfEncryption } from '../probes/self-encryption.js';
import { describeSelfEncryption, type SelfEncryption } from '../probes/tcg-discovery.js';

/** A revert erases the media encryption key and resets the drive; some take minutes. */
const REVERT_TIMEOUT_MS = 10 * 60_000;

/** What the technician reads, and what the report says about the revert. */
export type PsidRevertOutcome =
  /** Reverted and re-probed unlocked: the media encryption key is gone, which is a crypto erase. */
  | { readonly ok: true; readonly command: string; readonly after: SelfEncryption; readonly words: string }
  | {
      readonly ok: false;
      /** `bad-psid`: not 32 of A-Z0-9, never sent; `no-tool`: the image cannot revert this drive; `refused`: the drive said no; `still-locked`: it said yes and stayed locked. */
      readonly code: 'bad-psid' | 'no-tool' | 'refused' | 'still-locked';
      readonly reason: string;
      /** A drive the revert did not open goes to a person: `review`. */
      readonly disposition: 'review';
      readonly command?: string;
    };

/** Where it lived first; the drive's plan says the same step (drives/sed-lock.ts). */
export { PSID_ELSEWHERE_STEP };

const fail = (code: 'bad-psid' | 'no-tool' | 'refused' | 'still-locked', reason: string, command?: string): PsidRevertOutcome => ({ ok: false, code, reason, disposition: 'review', ...(command ? { command } : {}) });

/**
 * PSID revert of a self-encrypting drive (TCG Opal SSC: Revert on the AdminSP, authorised by the
 * PSID printed on the label): the drive discards its media encryption key and returns to its
 * manufactured state, unlocked. Then the drive is asked again, because some NVMe models report a
 * successful revert and stay locked. The PSID goes to the tool only: never into a log line, the
 * returned words or the command recorded for the report.
 */
export async function psidRevert(run: Runner, device: string, transport: 'nvme' | 'ata-scsi', psid: string): Promise<PsidRevertOutcome> {
  if (!PSID_PATTERN.test(psid)) return fail('bad-psid', 'the PSID is the 32 capital letters and digits printed on the drive label (no dashes or spaces)');
  const scrub = (text: string) => text.split(psid).join('‹PSID›');
  // nvme-cli asks twice to confirm and then reads the PSID with getpass(), which takes stdin when the agent has no terminal.
  const [tool, args, input, command] =
    transport === 'nvme'
      ? (['nvme', ['sed', 'revert', '--psid', device], `y\ny\n${psid}\n`, `nvme sed revert --psid ${device}`] as const)
      : (['sedutil-cli', ['--yesIreallywanttoERASEALLmydatausingthePSID', psid, device], undefined, `sedutil-cli --yesIreallywanttoERASEALLmydatausingthePSID ‹PSID› ${device}`] as const);
  let said: string;
  try {
    const r = await run(tool, [...args], { timeoutMs: REVERT_TIMEOUT_MS, ...(input !== undefined ? { input } : {}) });
    said = scrub(`${r.stderr}\n${r.stdout}`).split('\n').map((l) => l.trim()).filter((l) => l && !/\(y\/n\)\?\s*$|^PSID:\s*$/.test(l))[0] ?? '';
    if (r.exitCode !== 0) {
      const wrong = /incorrect password|NOT_AUTHORIZED/i.test(said);
      return fail('refused', wrong ? `the drive refused the PSID (${said}): check the 32 characters on the label and type them again` : `the PSID revert failed (${said || `exit ${r.exitCode ?? 'killed'}`})`, command);
    }
  } catch (error) {
    if (error instanceof ToolSpawnError) {
      return fail('no-tool', `this drive needs a PSID revert on a machine with ${transport === 'nvme' ? 'nvme-cli 2.x' : 'sedutil-cli'}: this image does not carry it. ${PSID_ELSEWHERE_STEP}`);
    }
    throw error;
  }
  const after = await probeSelfEncryption(run, device, transport);
  if (after.kind === 'tcg' && after.locked) {
    return fail('still-locked', `the PSID revert reported success but the drive is still locked (${describeSelfEncryption(after)}); some drives do this: it is not erased, and needs a person (power-cycle it and try once more, or the maker's tool)`, command);
  }
  if (after.kind !== 'tcg') return fail('still-locked', `the PSID revert reported success but the drive could not be asked whether it is unlocked (${describeSelfEncryption(after) ?? 'no answer'})`, command);
  return { ok: true, command, after, words: `PSID revert: the drive discarded its media encryption key (a cryptographic erase) and is now ${describeSelfEncryption(after)}` };
}
