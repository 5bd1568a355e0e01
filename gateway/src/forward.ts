import { Pool } from 'undici';
import { signServiceRequest } from '@erasure/shared';
import { systemClock, type Clock } from './clock.js';
import { signingTimes } from './signing-times.js';
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
  /**
   * CONTRACT.md `CLOUD_INTERNAL_URL`; a path part is kept as a prefix. Several URLs are cloud
   * instances sharing one database: calls go round-robin over them.
   */
  readonly baseUrl: string | readonly string[];
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

/** How long an instance that refused a connection is passed over before it is tried again. */
export const DOWN_INSTANCE_PAUSE_MS = 2_000;

/**
 * Errors raised while connecting, before a byte of the request left: trying another instance
 * then cannot apply a call twice. Anything later (a reset mid-answer, a timeout) may follow a
 * committed write, so it is never retried: the device hears "unavailable" and retries itself.
 */
const CONNECT_ERRORS = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);
const isConnectError = (error: unknown): boolean => CONNECT_ERRORS.has(String((error as { code?: unknown })?.code));

interface Upstream {
  pool: Pool;
  prefix: string;
  /** Clock time (ms) before which this instance is skipped, after it refused a connection. */
  downUntil: number;
}

/** A pooled, signing client for the internal channel (spec 5.2), over one or more cloud instances. */
export function createForwarder(options: ForwarderOptions): Forwarder {
  const timeoutMs = options.timeoutMs ?? DEFAULT_FORWARD_TIMEOUT_MS;
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const clock = options.clock ?? systemClock;
  const urls = typeof options.baseUrl === 'string' ? [options.baseUrl] : options.baseUrl;
  if (urls.length === 0) throw new Error('createForwarder needs at least one cloud URL');
  const connections = Math.max(1, Math.ceil((options.connections ?? 64) / urls.length));
  const upstreams: Upstream[] = urls.map((url) => {
    const base = new URL(url);
    return {
      prefix: base.pathname.replace(/\/+$/, ''),
      downUntil: 0,
      pool: new Pool(base.origin, {
        connections,
        pipelining: 1,
        connectTimeout: timeoutMs,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        // keepAliveTimeout stays undici's short default (and the server's Keep-Alive hint): a POST
        // is never retried, so reusing a socket the cloud already closed would cost a device a 503.
      }),
    };
  });
  let next = 0;
  const signingTime = signingTimes();

  /** Every instance once, starting at the next in turn; those marked down go last. */
  function order(): Upstream[] {
    const start = next;
    next = (next + 1) % upstreams.length;
    const turn = upstreams.map((_, i) => upstreams[(start + i) % upstreams.length]!);
    const now = clock().getTime();
    return [...turn.filter((u) => u.downUntil <= now), ...turn.filter((u) => u.downUntil > now)];
  }

  async function post(path: string, json: string): Promise<CloudAnswer> {
    const secret = options.secret;
    if (secret === undefined) return { kind: 'unavailable', cause: 'INTERNAL_API_SECRET is not configured' };
    // Sign and send the very same bytes: the cloud recomputes the HMAC over what it receives.
    const bytes = Buffer.from(json, 'utf8');
    // A fresh signature per forward: the cloud refuses one it has already accepted.
    const signed = signServiceRequest(secret, bytes, signingTime(bytes, Math.floor(clock().getTime() / 1000)));
    let cause = 'no cloud instance';
    for (const upstream of order()) {
      try {
        const response = await upstream.pool.request({
          method: 'POST',
          path: `${upstream.prefix}${path}`,
          headers: { 'content-type': 'application/json', accept: 'application/json', ...signed },
          body: bytes,
          // undici's own timeouts are per phase; this bounds a cloud that trickles bytes forever.
          signal: AbortSignal.timeout(timeoutMs),
        });
        const text = await readCapped(response.body, maxBytes);
        return { kind: 'answered', status: response.statusCode, body: text === undefined ? undefined : jsonOrUndefined(text) };
      } catch (error) {
        cause = describe(error);
        if (!isConnectError(error)) break;
        upstream.downUntil = clock().getTime() + DOWN_INSTANCE_PAUSE_MS;
      }
    }
    return { kind: 'unavailable', cause };
  }

  return { post, close: async () => void (await Promise.all(upstreams.map((u) => u.pool.close()))) };
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
