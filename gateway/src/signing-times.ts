import { createHash } from 'node:crypto';

/** How far ahead of the clock a timestamp may be moved; well inside the cloud's 300 s skew. */
export const MAX_LEAD_SECONDS = 60;

/**
 * Picks the timestamp each forward is signed with, so that no two forwards of the same bytes
 * from this process carry the same signature. The signature covers only `<timestamp>.<body>`,
 * and the cloud accepts each signature once (issue 28 item 6), yet two machines booted from
 * one image send identical verify and check-in bodies (the token's `jti` and `account_id`),
 * and one machine's verify and check-in are identical bytes too: signed in the same second they
 * would look like a replay. A later forward of bytes already signed at this second takes the
 * next unused second instead, up to {@link MAX_LEAD_SECONDS} ahead; past that (or on another
 * gateway instance) the cloud refuses the copy and the device hears 503 and retries.
 */
export function signingTimes(): (bytes: Uint8Array, nowSeconds: number) => number {
  /** The last second each body (by SHA-256) was signed with; only entries at or after now matter. */
  const last = new Map<string, number>();
  return (bytes, nowSeconds) => {
    if (last.size > 1000) for (const [key, at] of last) if (at < nowSeconds) last.delete(key);
    const key = createHash('sha256').update(bytes).digest('base64');
    const previous = last.get(key);
    const at = previous === undefined || previous < nowSeconds ? nowSeconds : Math.min(previous + 1, nowSeconds + MAX_LEAD_SECONDS);
    last.set(key, at);
    return at;
  };
}
