import { Pool } from 'undici';
import { signServiceRequest } from '@erasure/shared';
import { systemClock, type Clock } from './clock.js';
import type { DeviceIdentity } from './token.js';

/**
 * What came back from one internal call. `body` is the parsed JSON, or `undefined` when
 * the answer was empty, not JSON or over the size cap: none of those can satisfy a contract.
 */
export type CloudAnswer =
  | { readonly kind: 'answered'; readonly status: number; readonly body: unknown }
  | { readonly kind: 'unavailable'; readonly cause: string };

/** Sends signed JSON to the cloud's `/internal/*` API. */
export interface Forwarder {
  /** POSTs `json` (already serialised) to `path` and never throws: failures are `unavailable`. */
  post(path: string, json: string): Promise<CloudAnswer>;
  /** Lets in-flight calls finish, then closes the kept-alive connections. */
  close(): Promise<void>;
}

/** How to reach and authenticate to the cloud; only `baseUrl` and `secret` come from config. */
export interface ForwarderOptions {
  /** CONTRACT.md `CLOUD_INTERNAL_URL`; a path part is kept as a prefix. */
  readonly baseUrl: string;
  /** Unset: every call is `unavailable` without touching the network (fail closed). */
  readonly secret: string | undefined;
  /** Connect, first-byte and whole-call budget; 10 s by default, small in tests. */
  readonly timeoutMs?: number;
  /** Largest answer read into memory; a larger one is treated as unreadable. */
  readonly maxResponseBytes?: number;
  /** Kept-alive sockets to the cloud; one request each at a time (no pipelining). */
  readonly connections?: number;
  readonly clock?: Clock;
}

/** Past this a device is better told "unavailable" than kept waiting (it retries on its own). */
export const DEFAULT_FORWARD_TIMEOUT_MS = 10_000;
/** Far above any contract answer, low enough that a hostile cloud cannot exhaust memory. */
export const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;

/** A pooled, signing client for the internal channel (spec 5.2). */
export function createForwarder(options: ForwarderOptions): Forwarder {
  const timeoutMs = options.timeoutMs ?? DEFAULT_FORWARD_TIMEOUT_MS;
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const clock = options.clock ?? systemClock;
  const base = new URL(options.baseUrl);
  const prefix = base.pathname.replace(/\/+$/, '');
  const pool = new Pool(base.origin, {
    connections: options.connections ?? 64,
    pipelining: 1,
    connectTimeout: timeoutMs,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    // keepAliveTimeout stays undici's short default (and the server's Keep-Alive hint): a POST
    // is never retried, so reusing a socket the cloud already closed would cost a device a 503.
  });

  async function post(path: string, json: string): Promise<CloudAnswer> {
    const secret = options.secret;
    if (secret === undefined) return { kind: 'unavailable', cause: 'INTERNAL_API_SECRET is not configured' };
    // Sign and send the very same bytes: the cloud recomputes the HMAC over what it receives.
    const bytes = Buffer.from(json, 'utf8');
    const signed = signServiceRequest(secret, bytes, Math.floor(clock().getTime() / 1000));
    try {
      const response = await pool.request({
        method: 'POST',
        path: `${prefix}${path}`,
        headers: { 'content-type': 'application/json', accept: 'application/json', ...signed },
        body: bytes,
        // undici's own timeouts are per phase; this bounds a cloud that trickles bytes forever.
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await readCapped(response.body, maxBytes);
      return { kind: 'answered', status: response.statusCode, body: text === undefined ? undefined : jsonOrUndefined(text) };
    } catch (error) {
      return { kind: 'unavailable', cause: describe(error) };
    }
  }

  return { post, close: () => pool.close() };
}

/**
 * The bytes the gateway forwards: the device's validated body plus `jti` and `account_id`
 * from the token. Device bodies cannot carry those names (their schemas forbid extra
 * fields), so the token's values are the only ones the cloud ever sees.
 * `undefined` when the body cannot be serialised (nesting deeper than the JSON encoder's stack).
 */
export function forwardedBody(deviceBody: unknown, device: DeviceIdentity): string | undefined {
  const fields = typeof deviceBody === 'object' && deviceBody !== null && !Array.isArray(deviceBody) ? deviceBody : {};
  try {
    return JSON.stringify({ ...fields, jti: device.jti, account_id: device.sub });
  } catch {
    return undefined;
  }
}

async function readCapped(body: AsyncIterable<Buffer> & { destroy(): unknown }, maxBytes: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > maxBytes) {
      // Stop reading and drop the socket: the rest of a hostile answer is never buffered.
      body.destroy();
      return undefined;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

function jsonOrUndefined(text: string): unknown {
  try {
    // Plain JSON.parse is safe here: `__proto__` becomes an own key, and every answer is
    // then checked against a closed contract before any of it is used.
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' ? `${code}: ${error.message}` : `${error.name}: ${error.message}`;
  }
  return String(error);
}
