import { createHmac, timingSafeEqual } from 'node:crypto';

/** Headers of the internal channel (spec 5.2). */
export const SERVICE_TIMESTAMP_HEADER = 'x-service-timestamp';
export const SERVICE_SIGNATURE_HEADER = 'x-service-signature';
/** Allowed distance between the signer's clock and the verifier's, in seconds. */
export const SERVICE_SKEW_SECONDS = 300;

const TIMESTAMP = /^\d{1,12}$/;
const SIGNATURE = /^sha256=[0-9a-f]{64}$/;

/**
 * `sha256=` + lowercase hex HMAC-SHA256 of `<timestamp>.<raw body>`.
 * The same construction signs webhook deliveries (spec 6) with the subscription secret.
 */
export function hmacSignature(secret: string, timestamp: string, rawBody: Uint8Array | string): string {
  const mac = createHmac('sha256', secret);
  mac.update(`${timestamp}.`);
  mac.update(rawBody);
  return `sha256=${mac.digest('hex')}`;
}

/** Headers for one signed internal call; `nowSeconds` is injectable for tests. */
export function signServiceRequest(
  secret: string,
  rawBody: Uint8Array | string,
  nowSeconds: number = Math.floor(Date.now() / 1000),
): Record<typeof SERVICE_TIMESTAMP_HEADER | typeof SERVICE_SIGNATURE_HEADER, string> {
  const timestamp = String(nowSeconds);
  return {
    [SERVICE_TIMESTAMP_HEADER]: timestamp,
    [SERVICE_SIGNATURE_HEADER]: hmacSignature(secret, timestamp, rawBody),
  };
}

/**
 * True when both headers are present and well formed (digits-only timestamp of at most 12
 * digits, `sha256=` + 64 lowercase hex): a cheap check that needs no body and no secret.
 */
export function wellFormedServiceHeaders(
  timestamp: string | undefined,
  signature: string | undefined,
): boolean {
  return !!timestamp && !!signature && TIMESTAMP.test(timestamp) && SIGNATURE.test(signature);
}

export interface SignedRequest {
  timestamp: string | undefined;
  signature: string | undefined;
  rawBody: Uint8Array | string;
}

/**
 * True only for a well-formed, fresh signature over exactly these bytes.
 * Any missing or malformed piece is a plain `false`: the caller answers 401 either way.
 */
export function verifyServiceRequest(
  secret: string,
  request: SignedRequest,
  nowSeconds: number = Math.floor(Date.now() / 1000),
  skewSeconds: number = SERVICE_SKEW_SECONDS,
): boolean {
  const { timestamp, signature, rawBody } = request;
  if (!secret || !timestamp || !signature || !wellFormedServiceHeaders(timestamp, signature)) return false;
  if (Math.abs(nowSeconds - Number(timestamp)) > skewSeconds) return false;
  const expected = Buffer.from(hmacSignature(secret, timestamp, rawBody));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
