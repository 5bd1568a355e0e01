import { randomBytes, randomUUID } from 'node:crypto';

/** Every prefixed resource id of spec section 2, in one union. */
export const ID_PREFIXES = ['acct', 'asset', 'ltok', 'wr', 'cmap', 'cert', 'whk', 'usr', 'key'] as const;
export type IdPrefix = (typeof ID_PREFIXES)[number];
export type PrefixedId<P extends IdPrefix> = `${P}_${string}`;

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
const BODY_LENGTH = 20; // 36^20 ≈ 2^103: not guessable, not a sequence

/** A fresh opaque id such as `asset_4k2…`; random, never derived from a row number. */
export function newId<P extends IdPrefix>(prefix: P): PrefixedId<P> {
  const bytes = randomBytes(BODY_LENGTH);
  let body = '';
  // 252 is the largest multiple of 36 below 256: rejecting larger bytes keeps the alphabet uniform.
  for (let i = 0; body.length < BODY_LENGTH; i++) {
    const byte = i < bytes.length ? bytes[i]! : randomBytes(1)[0]!;
    if (byte < 252) body += ALPHABET[byte % 36];
  }
  return `${prefix}_${body}`;
}

/** True when `value` is an id of the given prefix as minted by {@link newId}. */
export function isId<P extends IdPrefix>(prefix: P, value: unknown): value is PrefixedId<P> {
  return typeof value === 'string' && new RegExp(`^${prefix}_[0-9a-z]{${BODY_LENGTH}}$`).test(value);
}

/** UUID v4, the form of `jti` and `job_id`. */
export function newUuid(): string {
  return randomUUID();
}

export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

export const RECORD_ID_PATTERN = '^CW-\\d{8}-\\d{6}$';

/** The boot record id `CW-YYYYMMDD-HHMMSS` (UTC) for the given instant. */
export function recordIdAt(at: Date): string {
  const iso = at.toISOString(); // 2026-11-22T13:07:12.000Z
  return `CW-${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}-${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}`;
}

export function isRecordId(value: unknown): value is string {
  return typeof value === 'string' && new RegExp(RECORD_ID_PATTERN).test(value);
}

/** Certificate number / reference: `CW-` plus the account-scoped sequence, zero-padded to 6 digits. */
export function certificateNumber(sequence: number): string {
  if (!Number.isSafeInteger(sequence) || sequence < 1) throw new RangeError(`bad certificate sequence ${sequence}`);
  return `CW-${String(sequence).padStart(6, '0')}`;
}
