import { createHmac, timingSafeEqual } from 'node:crypto';

/** Spec 8: a presigned certificate URL is valid 5 minutes. */
export const PRESIGNED_URL_TTL_SECONDS = 5 * 60;

/** Where private objects are served once a presigned URL checks out. */
export const FILES_PREFIX = '/files/';

// The path and expiry are joined with a newline, which neither can contain, so no two
// (path, expiry) pairs sign the same string.
const signingString = (path: string, expires: number) => `${path}\n${expires}`;

const sign = (secret: Uint8Array | string, path: string, expires: number) =>
  createHmac('sha256', secret).update(signingString(path, expires)).digest('hex');

/** The encoded `/files/<key>` path of an object key; each segment is URL-encoded. */
export function filesPath(key: string): string {
  return FILES_PREFIX + key.split('/').map(encodeURIComponent).join('/');
}

/**
 * A presigned path-and-query for `key`: `/files/<key>?expires=<unix>&signature=<hex>`, where
 * the signature is HMAC-SHA256 over the path and the expiry. Prefix with the public base URL.
 */
export function presignPath(secret: Uint8Array | string, key: string, nowMs: number, ttlSeconds = PRESIGNED_URL_TTL_SECONDS): string {
  const path = filesPath(key);
  const expires = Math.floor(nowMs / 1000) + ttlSeconds;
  return `${path}?expires=${expires}&signature=${sign(secret, path, expires)}`;
}

/** Outcome of checking a presigned request; `forbidden` covers missing, malformed and wrong. */
export type PresignCheck = { ok: true } | { ok: false; reason: 'forbidden' | 'expired' };

/**
 * Checks a presigned request. The signature is checked first, so editing `expires` to extend a
 * link is a 403, never a 410; only an authentic link past its expiry is "expired".
 */
export function checkPresigned(
  secret: Uint8Array | string,
  path: string,
  query: { expires?: unknown; signature?: unknown },
  nowMs: number,
): PresignCheck {
  const { expires, signature } = query;
  if (typeof expires !== 'string' || !/^\d{1,12}$/.test(expires)) return { ok: false, reason: 'forbidden' };
  if (typeof signature !== 'string' || !/^[0-9a-f]{64}$/.test(signature)) return { ok: false, reason: 'forbidden' };
  const expected = Buffer.from(sign(secret, path, Number(expires)), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) return { ok: false, reason: 'forbidden' };
  if (Math.floor(nowMs / 1000) > Number(expires)) return { ok: false, reason: 'expired' };
  return { ok: true };
}
