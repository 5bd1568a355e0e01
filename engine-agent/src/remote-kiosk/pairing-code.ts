import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The pairing code of the remote kiosk (`erasure.agent_listen`): the one secret a client on
 * another machine must show on every call through the proxy. Made at boot and shown on the
 * machine's own console, or given with `erasure.agent_secret=` (a test rig's or a personalized
 * image's fixed code).
 */

/** A code shorter than this (after normalizing) is refused: the proxy then does not start. */
export const MIN_PAIRING_CODE_LENGTH = 16;

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'; // no 0/O or 1/I: it is read off a screen and typed

/** A fresh code: 20 characters of a 32-letter alphabet (100 bits), in groups of four for typing. */
export function generatePairingCode(random: (n: number) => Buffer = randomBytes): string {
  const bytes = random(20);
  const chars = [...bytes].map((b) => ALPHABET[b % ALPHABET.length]).join('');
  return (chars.match(/.{4}/g) ?? []).join('-');
}

/** What is compared: case, spaces and dashes do not matter, so a code typed as shown always matches. */
export function normalizePairingCode(code: string): string {
  return code.replace(/[\s-]/g, '').toUpperCase();
}

/** Equal lengths for timingSafeEqual whatever was typed; the digest hides the length as well. */
const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/** Whether `offered` is the code, compared in constant time. An empty offer never matches. */
export function pairingCodeMatches(code: string, offered: string | undefined): boolean {
  if (offered === undefined) return false;
  const a = normalizePairingCode(offered);
  return a.length > 0 && timingSafeEqual(digest(a), digest(normalizePairingCode(code)));
}

/** The cookie a paired browser carries: derived from the code, so the cookie jar never holds the code itself. */
export function pairingCookieValue(code: string): string {
  return createHmac('sha256', normalizePairingCode(code)).update('erasure remote kiosk pairing').digest('base64url');
}

/** Whether a cookie value is the one the code gives, in constant time. */
export function pairingCookieMatches(code: string, offered: string | undefined): boolean {
  if (offered === undefined || offered === '') return false;
  return timingSafeEqual(digest(offered), digest(pairingCookieValue(code)));
}
