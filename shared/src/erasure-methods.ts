import { Type, type Static } from '@sinclair/typebox';

/**
 * The erasure methods customers' contracts name (issue 29), as pure data: the engine plans and
 * runs them, the cloud stores an account's policy over their ids, the kiosk and web app list
 * them. No Node imports: the browser bundles this file through `@erasure/shared/contracts`.
 *
 * Where the standard itself is public, the comment above each entry cites it; several (AFSSI-5020,
 * AR 380-19, NZSIT 402, BSI-2011-VS) are known only through the erasure vendors that implement
 * them, and the comment names the vendor text the passes were taken from.
 */

/** What one pass writes. `complement` is the bitwise complement of the previous pass's bytes. */
export const PassPatternSchema = Type.Union([
  Type.Object({ kind: Type.Literal('zero') }, { additionalProperties: false }),
  Type.Object({ kind: Type.Literal('one') }, { additionalProperties: false }),
  Type.Object({ kind: Type.Literal('byte'), value: Type.Integer({ minimum: 0, maximum: 255 }) }, { additionalProperties: false }),
  // A repeating multi-byte pattern (Gutmann's 0x92 0x49 0x24), laid from byte 0 of the device.
  Type.Object({ kind: Type.Literal('bytes'), values: Type.Array(Type.Integer({ minimum: 0, maximum: 255 }), { minItems: 2, maxItems: 16 }) }, { additionalProperties: false }),
  Type.Object({ kind: Type.Literal('complement') }, { additionalProperties: false }),
  Type.Object({ kind: Type.Literal('prng') }, { additionalProperties: false }),
]);
/** What one pass writes. */
export type PassPattern = Static<typeof PassPatternSchema>;

/** How a pass is read back: not at all, a pseudo-random sample, or every sector. */
export const PassVerifySchema = Type.Union([Type.Literal('none'), Type.Literal('sampled'), Type.Literal('full')]);
/** How a pass is read back. */
export type PassVerify = Static<typeof PassVerifySchema>;

/** One overwrite pass of a method. */
export interface MethodPass {
  readonly pattern: PassPattern;
  readonly verify: PassVerify;
}

/** Whether the drive's firmware does the work, the write path does, or both in turn. */
export type MethodTechnique = 'firmware' | 'overwrite' | 'firmware+overwrite';

/** One entry of the catalogue. */
export interface ErasureMethod {
  /** Stable kebab-case id: the wire, the policy and the kernel command line use it. */
  readonly id: string;
  /** The name as contracts and tenders write it; it becomes `wipe_method` for named methods. */
  readonly name: string;
  /** The document the method comes from. */
  readonly standard: string;
  readonly technique: MethodTechnique;
  /** The overwrite passes in order (empty for a firmware-only method). */
  readonly passes: readonly MethodPass[];
  /** The read-back after the last pass that the standard asks for. */
  readonly finalVerification: PassVerify;
}

const zero = { kind: 'zero' } as const;
const one = { kind: 'one' } as const;
const complement = { kind: 'complement' } as const;
const prng = { kind: 'prng' } as const;
const byte = (value: number) => ({ kind: 'byte', value }) as const;
const bytes = (...values: number[]) => ({ kind: 'bytes', values }) as const;
const p = (pattern: PassPattern, verify: PassVerify = 'none'): MethodPass => ({ pattern, verify });

/** Gutmann's 35 passes, in the order of Table 1 of the paper (random passes 1-4 and 32-35). */
const GUTMANN: readonly PassPattern[] = [
  prng, prng, prng, prng,
  byte(0x55), byte(0xaa),
  bytes(0x92, 0x49, 0x24), bytes(0x49, 0x24, 0x92), bytes(0x24, 0x92, 0x49),
  ...Array.from({ length: 16 }, (_, i) => byte(i * 0x11)),
  bytes(0x92, 0x49, 0x24), bytes(0x49, 0x24, 0x92), bytes(0x24, 0x92, 0x49),
  bytes(0x6d, 0xb6, 0xdb), bytes(0xb6, 0xdb, 0x6d), bytes(0xdb, 0x6d, 0xb6),
  prng, prng, prng, prng,
];

/** Every method the engine offers. The first two are NIST's; the rest are the named methods. */
export const METHOD_CATALOGUE = [
  // NIST SP 800-88 Rev. 2 (2025) §3 and IEEE 2883-2022 §6: Purge by the strongest firmware
  // sanitize the drive's interface supports (crypto, block, overwrite, security erase). Today's default.
  { id: 'nist-800-88-purge', name: 'NIST 800-88 R2 Purge', standard: 'NIST SP 800-88 Rev. 2 / IEEE 2883-2022', technique: 'firmware', passes: [], finalVerification: 'full' },
  // NIST SP 800-88 Rev. 2 / IEEE 2883-2022 Clear: one overwrite of every user-addressable sector
  // through the standard write path, then a full read-back (Rev. 1 §4.7 full verification).
  { id: 'nist-800-88-clear', name: 'NIST 800-88 R2 Clear', standard: 'NIST SP 800-88 Rev. 2 / IEEE 2883-2022', technique: 'overwrite', passes: [p(zero)], finalVerification: 'full' },
  // Plain single passes (nwipe "zero" and "prng" methods).
  { id: 'zeros', name: 'Zeros (1 pass)', standard: 'Single pass of zeros', technique: 'overwrite', passes: [p(zero)], finalVerification: 'full' },
  { id: 'prng', name: 'PRNG (1 pass)', standard: 'Single pass of pseudo-random data', technique: 'overwrite', passes: [p(prng)], finalVerification: 'full' },
  { id: 'prng-3', name: 'PRNG (3 passes)', standard: 'Three passes of pseudo-random data', technique: 'overwrite', passes: [p(prng), p(prng), p(prng)], finalVerification: 'full' },
  // DoD 5220.22-M (NISPOM, Jan 1995) §8-306 clearing/sanitization matrix, method "d"/"e": overwrite
  // all addressable locations with a character, its complement, then a random character, and verify.
  // The character 0x00 follows nwipe's "DoD Short" (src/method.c: passes 1, 2 and 7 of the 7-pass).
  { id: 'dod-5220.22-m-3', name: 'DoD 5220.22-M (3 passes)', standard: 'US DoD 5220.22-M (NISPOM 1995) §8-306', technique: 'overwrite', passes: [p(zero), p(complement), p(prng, 'full')], finalVerification: 'full' },
  // DoD 5220.22-M ECE: method E (character, complement, random), method C (a single character),
  // then method E again (Blancco and Jetico BCWipe descriptions of "DoD 5220.22-M ECE", 7 passes;
  // nwipe src/method.c "dod522022m"). The standard leaves the characters to the implementer.
  {
    id: 'dod-5220.22-m-ece-7',
    name: 'DoD 5220.22-M ECE (7 passes)',
    standard: 'US DoD 5220.22-M (NISPOM 1995) §8-306, methods E, C, E',
    technique: 'overwrite',
    passes: [p(zero), p(complement), p(prng), p(byte(0x96)), p(zero), p(complement), p(prng, 'full')],
    finalVerification: 'full',
  },
  // HMG Infosec Standard No. 5 (CESG, 2009) Baseline: one pass of zeros, verified.
  { id: 'hmg-is5-baseline', name: 'HMG IS5 Baseline', standard: 'UK HMG Infosec Standard 5 (Baseline)', technique: 'overwrite', passes: [p(zero, 'full')], finalVerification: 'full' },
  // HMG IS5 Enhanced: zeros, ones, random, with the random pass verified.
  { id: 'hmg-is5-enhanced', name: 'HMG IS5 Enhanced', standard: 'UK HMG Infosec Standard 5 (Enhanced)', technique: 'overwrite', passes: [p(zero), p(one), p(prng, 'full')], finalVerification: 'full' },
  // BSI-2011-VS (German BSI, VS-IT guideline 2011): Blancco's list of standards gives it as 4 passes
  // without publishing the patterns; we write random, 0x00, 0xFF, random and verify the last pass.
  { id: 'bsi-2011-vs', name: 'BSI-2011-VS', standard: 'German BSI VS-IT guideline (2011)', technique: 'overwrite', passes: [p(prng), p(zero), p(one), p(prng, 'full')], finalVerification: 'full' },
  // BSI-GS (German BSI IT-Grundschutz, as Blancco describes it): hidden areas removed, one
  // aperiodic random overwrite, then the drive's firmware erase, then verification.
  { id: 'bsi-gs', name: 'BSI-GS', standard: 'German BSI IT-Grundschutz', technique: 'firmware+overwrite', passes: [p(prng)], finalVerification: 'full' },
  // CSEC ITSG-06 (Communications Security Establishment Canada, 2006) §2.3.2: a value, its
  // complement, then a random value, with verification (boot-disk.com zDelete "Canadian CSEC ITSG-06").
  { id: 'csec-itsg-06', name: 'CSEC ITSG-06', standard: 'Canada CSEC ITSG-06 (2006)', technique: 'overwrite', passes: [p(one), p(complement), p(prng, 'full')], finalVerification: 'full' },
  // Australian Government ISM (ASD), media sanitisation control: "overwrite the media at least
  // once in its entirety with a random pattern followed by a read back for verification".
  { id: 'asd-ism', name: 'Australian ISM (1 pass)', standard: 'Australian Government Information Security Manual (ASD)', technique: 'overwrite', passes: [p(prng, 'full')], finalVerification: 'full' },
  // NZSIT 402 (GCSB New Zealand, 2008): one pass of a random pattern with verification.
  { id: 'nzsit-402', name: 'NZSIT 402', standard: 'New Zealand NZSIT 402 (GCSB, 2008)', technique: 'overwrite', passes: [p(prng, 'full')], finalVerification: 'full' },
  // VSITR (BSI, Richtlinien zum Geheimschutz, 1999): 0x00/0xFF alternating six times, 0xAA last.
  {
    id: 'vsitr',
    name: 'VSITR (7 passes)',
    standard: 'German BSI VSITR (1999)',
    technique: 'overwrite',
    passes: [p(zero), p(one), p(zero), p(one), p(zero), p(one), p(byte(0xaa), 'full')],
    finalVerification: 'full',
  },
  // Schneier, Applied Cryptography 2nd ed. (1996) §10.9: "the first time with all ones, the second
  // time with all zeros, and five times with a cryptographically secure pseudo-random sequence".
  {
    id: 'schneier',
    name: 'Bruce Schneier (7 passes)',
    standard: 'B. Schneier, Applied Cryptography (1996) §10.9',
    technique: 'overwrite',
    passes: [p(one), p(zero), p(prng), p(prng), p(prng), p(prng), p(prng)],
    finalVerification: 'full',
  },
  // P. Gutmann, "Secure Deletion of Data from Magnetic and Solid-State Memory" (USENIX Security 1996), Table 1.
  { id: 'gutmann', name: 'Gutmann (35 passes)', standard: 'P. Gutmann, USENIX Security 1996', technique: 'overwrite', passes: GUTMANN.map((x) => p(x)), finalVerification: 'full' },
  // RCMP TSSIT OPS-II (Royal Canadian Mounted Police, 2003) Appendix: 0x00/0xFF alternating
  // six times, then a random pass, verified (boot-disk.com zDelete "Canadian OPS-II").
  {
    id: 'rcmp-tssit-ops-ii',
    name: 'RCMP TSSIT OPS-II (7 passes)',
    standard: 'Canada RCMP TSSIT OPS-II (2003)',
    technique: 'overwrite',
    passes: [p(zero), p(one), p(zero), p(one), p(zero), p(one), p(prng, 'full')],
    finalVerification: 'full',
  },
  // GOST R 50739-95 (Russia): zeros, then random (boot-disk.com zDelete "Russian GOST p50739-95").
  { id: 'gost-r-50739-95', name: 'GOST R 50739-95 (2 passes)', standard: 'Russia GOST R 50739-95', technique: 'overwrite', passes: [p(zero), p(prng)], finalVerification: 'full' },
  // US Army AR 380-19: 0xFF, zeros, random, verified (boot-disk.com zDelete "US Army AR380-19").
  { id: 'ar-380-19', name: 'US Army AR 380-19 (3 passes)', standard: 'US Army Regulation 380-19', technique: 'overwrite', passes: [p(one), p(zero), p(prng, 'full')], finalVerification: 'full' },
  // US Air Force AFSSI-5020: random, zeros, 0xFF, verified (boot-disk.com zDelete "US Air Force 5020").
  { id: 'afssi-5020', name: 'US Air Force AFSSI-5020 (3 passes)', standard: 'US Air Force System Security Instruction 5020', technique: 'overwrite', passes: [p(prng), p(zero), p(one, 'full')], finalVerification: 'full' },
] as const satisfies readonly ErasureMethod[];

/** Every method id. */
export type MethodId = (typeof METHOD_CATALOGUE)[number]['id'];
/** Every method id, in catalogue order. */
export const METHOD_IDS = METHOD_CATALOGUE.map((m) => m.id) as readonly MethodId[];
/** Schema of a method id: one of the catalogue's. */
export const MethodIdSchema = Type.Union(METHOD_CATALOGUE.map((m) => Type.Literal(m.id)));

/** The default method: the strongest firmware sanitize the drive supports (today's behaviour). */
export const DEFAULT_METHOD_ID: MethodId = 'nist-800-88-purge';

/** The catalogue entry of an id, or undefined for an unknown id (input from outside is a plain string). */
export function findMethod(id: string): ErasureMethod | undefined {
  return (METHOD_CATALOGUE as readonly ErasureMethod[]).find((m) => m.id === id);
}

/** True for a NIST method, whose `wipe_method` stays the spec's string. */
export const isNistMethod = (id: string): boolean => id === 'nist-800-88-purge' || id === 'nist-800-88-clear';

/**
 * How much of a drive is read back: every sector of the final pass, a pseudo-random sample of N %
 * of its blocks (at least two samples in every 1/100 of the drive), or every pass in full.
 */
export const VerificationLevelSchema = Type.Union([
  Type.Literal('full'),
  Type.Literal('every-pass'),
  Type.Object({ sample: Type.Integer({ minimum: 1, maximum: 100 }) }, { additionalProperties: false }),
]);
/** How much of a drive is read back. */
export type VerificationLevel = Static<typeof VerificationLevelSchema>;

/** An account's (or a device token's) erasure policy. */
export const ErasurePolicySchema = Type.Object(
  {
    default_method: MethodIdSchema,
    verification: VerificationLevelSchema,
    allowed_methods: Type.Array(MethodIdSchema, { minItems: 1, uniqueItems: true }),
  },
  { additionalProperties: false },
);
/** An account's (or a device token's) erasure policy. */
export type ErasurePolicy = Static<typeof ErasurePolicySchema>;

/** Today's behaviour: NIST Purge where the drive allows it, full verification, every method allowed. */
export const DEFAULT_ERASURE_POLICY: ErasurePolicy = Object.freeze({
  default_method: DEFAULT_METHOD_ID,
  verification: 'full',
  allowed_methods: Object.freeze([...METHOD_IDS]) as MethodId[],
});

/** The words for a level: `full`, `every-pass`, `sample:10` (the kernel command line's spelling). */
export function formatVerificationLevel(level: VerificationLevel): string {
  return typeof level === 'string' ? level : `sample:${level.sample}`;
}

/** Reads `full`, `every-pass` or `sample:N` (N 1..100); undefined for anything else. */
export function parseVerificationLevel(text: string): VerificationLevel | undefined {
  if (text === 'full' || text === 'every-pass') return text;
  const m = /^sample:(\d{1,3})$/.exec(text);
  const n = m ? Number(m[1]) : NaN;
  return Number.isInteger(n) && n >= 1 && n <= 100 ? { sample: n } : undefined;
}
