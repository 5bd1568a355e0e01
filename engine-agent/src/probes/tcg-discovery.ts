import { parsed, unparsable, type ParseResult } from './parse-result.js';

/** The TCG Storage security subsystem class a drive's level 0 discovery names. */
export type TcgFamily = 'Opal 1' | 'Opal 2' | 'Opalite' | 'Pyrite 1' | 'Pyrite 2' | 'Ruby' | 'Enterprise';

/** Which tool read the level 0 discovery: `sg_raw security protocol in` is sg3_utils' sg_raw sending SECURITY PROTOCOL IN. */
export type TcgTool = 'nvme sed discover' | 'sedutil-cli --query' | 'sg_raw security protocol in';

/** A drive's TCG level 0 discovery: the locking feature's flags and the SSC it implements. */
export interface TcgState {
  readonly family?: TcgFamily;
  readonly lockingSupported: boolean;
  /** The Locking SP is activated (a password was set up). */
  readonly lockingEnabled: boolean;
  /** At least the global range is read or write locked: its data reads back as I/O errors. */
  readonly locked: boolean;
  readonly mediaEncryption: boolean;
  /** MBR shadowing is on: a locked drive shows the shadow (pre-boot) image in its first sectors. */
  readonly mbrShadowEnabled: boolean;
  readonly mbrDone: boolean;
}

/**
 * Whether a drive is self-encrypting, as far as the image's tools can tell. `unknown` is an
 * answer, not an error: no tool, or a tool that could not talk to the drive.
 */
export type SelfEncryption =
  | ({ readonly kind: 'tcg'; readonly tool: TcgTool } & TcgState)
  | { readonly kind: 'none'; readonly tool: TcgTool }
  | { readonly kind: 'unknown'; readonly reason: string };

/** The SSC a discovery names, most specific first: the first pattern that matches names the family. */
type FamilyRows = readonly (readonly [RegExp, TcgFamily])[];

/** `nvme sed discover -v` prints one block per feature descriptor, headed by its name. */
const NVME_SED_FAMILIES: FamilyRows = [
  [/^SED OPAL V2/m, 'Opal 2'],
  [/^SED OPAL V1/m, 'Opal 1'],
  [/^Ruby:/m, 'Ruby'],
  [/^Pyrite V2:/m, 'Pyrite 2'],
  [/^Pyrite V1:/m, 'Pyrite 1'],
  [/^SED Opalite:/m, 'Opalite'],
];

/** Ruby (0x0304) and Pyrite (0x0302/0x0303) are listed by newer sedutil forks; the DTA one names Opal and Enterprise. */
const SEDUTIL_FAMILIES: FamilyRows = [
  [/OPAL 2\.0 function|\(0x0203\)/i, 'Opal 2'],
  [/Opal V1\.0 function|\(0x0200\)/i, 'Opal 1'],
  [/Ruby|\(0x0304\)/i, 'Ruby'],
  [/Pyrite.*2|\(0x0303\)/i, 'Pyrite 2'],
  [/Pyrite|\(0x0302\)/i, 'Pyrite 1'],
  [/Enterprise|\(0x0100\)/i, 'Enterprise'],
];

const familyOf = (stdout: string, rows: FamilyRows): TcgFamily | undefined => rows.find(([pattern]) => pattern.test(stdout))?.[1];

const yes = (v: string | undefined): boolean | undefined => (v === undefined ? undefined : /^(yes|y)$/i.test(v.trim()));

/** `nvme sed discover -v`: "Locking Features:" then "<Name> : yes|no" rows, then one block per feature. */
export function parseNvmeSedDiscover(stdout: string): ParseResult<TcgState> {
  if (!/^Locking Features:/m.test(stdout)) return unparsable('no "Locking Features" block');
  const row = (name: string) => yes(new RegExp(`^\\s*${name}\\s*:\\s*(\\S+)`, 'm').exec(stdout)?.[1]);
  const lockingSupported = row('Locking Supported');
  const lockingEnabled = row('Locking Feature Enabled');
  const locked = row('Locked');
  if (lockingSupported === undefined || lockingEnabled === undefined || locked === undefined) return unparsable('locking rows missing');
  const family = familyOf(stdout, NVME_SED_FAMILIES);
  return parsed({
    ...(family ? { family } : {}),
    lockingSupported,
    lockingEnabled,
    locked,
    mediaEncryption: row('Media Encryption') ?? false,
    mbrShadowEnabled: row('MBR Enabled') ?? false,
    mbrDone: row('MBR Done') ?? false,
  });
}

/** `sedutil-cli --query`: "Locking function (0x0002)" then "Locked = Y, LockingEnabled = Y, ..." */
export function parseSedutilQuery(stdout: string): ParseResult<TcgState> {
  const block = /Locking function \(0x0002\)\s*\n([\s\S]*?)(?=\n\S|\n\s*\n|$)/.exec(stdout)?.[1];
  if (block === undefined) return unparsable('no "Locking function (0x0002)" block');
  const flag = (name: string) => yes(new RegExp(`\\b${name}\\s*=\\s*([YN])`).exec(block)?.[1]);
  const lockingSupported = flag('LockingSupported');
  const lockingEnabled = flag('LockingEnabled');
  const locked = flag('Locked');
  if (lockingSupported === undefined || lockingEnabled === undefined || locked === undefined) return unparsable('locking flags missing');
  const family = familyOf(stdout, SEDUTIL_FAMILIES);
  return parsed({
    ...(family ? { family } : {}),
    lockingSupported,
    lockingEnabled,
    locked,
    mediaEncryption: flag('MediaEncrypt') ?? false,
    mbrShadowEnabled: flag('MBREnabled') ?? false,
    mbrDone: flag('MBRDone') ?? false,
  });
}

/** Plain words for the drive row and the report, e.g. "self-encrypting (Opal 2, locked)". */
export function describeSelfEncryption(se: SelfEncryption | undefined): string | undefined {
  if (!se) return undefined;
  if (se.kind === 'none') return undefined;
  if (se.kind === 'unknown') return `self-encryption unknown: ${se.reason}`;
  const state = se.locked ? 'locked' : se.lockingEnabled ? 'unlocked' : 'locking off';
  return `self-encrypting (${se.family ? `${se.family}, ` : ''}${state})`;
}

/** A locked locking range reads back as I/O errors: nothing but a PSID revert (or the owner's password) gets past it. */
export const sedLocked = (se: SelfEncryption | undefined): boolean => se?.kind === 'tcg' && se.locked;

/** The erase job's self-encryption words, for the wipe result: only a drive known to be self-encrypting carries them. */
export const sedJobField = (se: SelfEncryption | undefined): { selfEncryption?: string } => {
  const words = se?.kind === 'tcg' ? describeSelfEncryption(se) : undefined;
  return words ? { selfEncryption: words } : {};
};
