import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Agent, buildConnector, request } from 'undici';
import type { AttemptOutcome } from '../domain/webhooks/policy.js';
import { refusedAddressReason, WebhookDestinationRefusedError, type OutboundFailure, type OutboundPolicy } from '../domain/webhooks/ssrf.js';

/** The resolver the guard asks; tests inject one to play a DNS-rebinding name without DNS. */
export type Resolve = (hostname: string, callback: (error: Error | null, addresses: LookupAddress[]) => void) => void;

const systemResolve: Resolve = (hostname, callback) =>
  dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) => callback(error, addresses ?? []));

type LookupCallback = (error: Error | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `net.connect` lookup that resolves the name itself and refuses the connection when ANY
 * resolved address is internal. The socket connects only to addresses this function returned,
 * so the check is on the address actually connected: a name that resolves to a public address
 * for an early check and to 169.254.169.254 at connect time (DNS rebinding) is still refused.
 */
export function guardedLookup(resolve: Resolve = systemResolve, policy: Pick<OutboundPolicy, 'allowLoopback'> = { allowLoopback: false }) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolve(hostname, (error, addresses) => {
      if (error) return callback(error, []);
      if (addresses.length === 0) return callback(new Error(`${hostname} has no address`), []);
      for (const { address } of addresses) {
        const reason = refusedAddressReason(address, policy);
        if (reason) return callback(new WebhookDestinationRefusedError(hostname, address, reason), []);
      }
      const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
      if (options.all) return callback(null, wanted);
      const first = wanted[0];
      return first ? callback(null, first.address, first.family) : callback(new Error(`${hostname} has no IPv${String(options.family)} address`), []);
    });
  };
}

/**
 * undici connector with the SSRF guard: IP-literal hosts (which `net.connect` never looks up)
 * are judged here, names through {@link guardedLookup}. Everything else is undici's own.
 */
export function guardedConnector(input: { timeoutMs: number; resolve?: Resolve | undefined; allowLoopback: boolean }): buildConnector.connector {
  const policy = { allowLoopback: input.allowLoopback };
  const base = buildConnector({ timeout: input.timeoutMs, lookup: guardedLookup(input.resolve, policy) } as buildConnector.BuildOptions);
  return (options, callback) => {
    const literal = options.hostname.replace(/^\[|\]$/g, '');
    if (isIP(literal)) {
      const reason = refusedAddressReason(literal, policy);
      if (reason) {
        callback(new WebhookDestinationRefusedError(options.hostname, literal, reason), null);
        return;
      }
    }
    base(options, callback);
  };
}

/** A GET's answer with its body text, or the failure (detail for the log, category for the user). */
export type ReadOutcome =
  | { ok: true; status: number; body: string; durationMs: number }
  | { ok: false; error: string; failure: OutboundFailure; durationMs: number };

/** Sends one request to a user-typed URL; failures come back as values. */
export interface OutboundClient {
  /** One POST; the answer's body is drained and dropped. `signal` ends it early (a stopping worker); the timeout ends it in any case. */
  send(url: string, body: string, headers: Record<string, string>, signal?: AbortSignal): Promise<AttemptOutcome>;
  /** One GET whose answer is read, up to `maxBytes` (past it: `too_large`, nothing returned). */
  read(url: string, headers: Record<string, string>, options: { maxBytes: number }): Promise<ReadOutcome>;
  close(): Promise<void>;
}

/** The webhook worker's view of the one outbound client: deliveries and pings only POST. */
export type WebhookSender = Pick<OutboundClient, 'send' | 'close'>;

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT']);

/** The log's detail and the user's category of a failed request. */
const failureOf = (error: unknown, timeoutMs: number): { error: string; failure: OutboundFailure } => {
  const seen = new Set<unknown>();
  for (let e: unknown = error; e instanceof Error && !seen.has(e); e = e.cause) {
    seen.add(e);
    const code = (e as { code?: string }).code ?? '';
    if (e instanceof WebhookDestinationRefusedError) return { error: e.message, failure: 'refused' };
    if (e.name === 'TimeoutError' || e.name === 'AbortError' || TIMEOUT_CODES.has(code)) {
      return { error: `no answer within ${timeoutMs / 1000} s`, failure: 'timeout' };
    }
    if (/CERT|SSL|TLS|SELF_SIGNED|ALTNAME|UNABLE_TO_(GET|VERIFY)/.test(code) || /\b(ssl|tls)\b/i.test(e.message)) {
      return { error: [code, e.message].filter(Boolean).join(': '), failure: 'tls' };
    }
  }
  const e = error as { code?: string; message?: string };
  return { error: [e.code, e.message].filter(Boolean).join(': ') || 'request failed', failure: 'connect' };
};

/**
 * The cloud's one door out: every request to a URL a user typed (webhook deliveries and test
 * pings, the wipes grid's Push, sandbox deliveries, the sandbox's live console) goes through
 * this client. One keep-alive undici Agent, a hard timeout over the whole exchange, redirects
 * never followed (a 3xx is just a non-2xx), a POST's answer drained and dropped, a GET's read up
 * to a limit, and every connection through the SSRF guard; `allowHttp` widens only the scheme,
 * `allowLoopback` only the loopback addresses.
 */
export function createOutboundClient(input: OutboundPolicy & { timeoutMs: number; connections?: number; resolve?: Resolve | undefined }): OutboundClient {
  const agent = new Agent({
    connections: input.connections ?? 64,
    keepAliveTimeout: 10_000,
    headersTimeout: input.timeoutMs,
    bodyTimeout: input.timeoutMs,
    connect: guardedConnector(input),
  });
  /** The URL, or why it is refused before any connection: scheme and credentials, judged on every request. */
  const target = (url: string): { ok: true; url: URL } | { ok: false; error: string; failure: OutboundFailure; durationMs: 0 } => {
    const refuse = (error: string) => ({ ok: false as const, error, failure: 'refused' as const, durationMs: 0 as const });
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return refuse('invalid url');
    }
    // The scheme is judged here as well as when the URL was saved: a row written under a
    // looser configuration must not be sent once the configuration tightens.
    if (parsed.protocol !== 'https:' && !(input.allowHttp && parsed.protocol === 'http:')) {
      return refuse(`refused destination ${parsed.host}: ${parsed.protocol} scheme not allowed`);
    }
    if (parsed.username || parsed.password) return refuse(`refused destination ${parsed.host}: credentials in url`);
    return { ok: true, url: parsed };
  };
  const failed = (error: unknown, started: number) => {
    const { error: detail, failure } = failureOf(error, input.timeoutMs);
    return { ok: false as const, error: detail.slice(0, 500), failure, durationMs: performance.now() - started };
  };

  return {
    async send(url, body, headers, signal) {
      const started = performance.now();
      const checked = target(url);
      if (!checked.ok) return checked;
      try {
        const timeout = AbortSignal.timeout(input.timeoutMs);
        const response = await request(checked.url, { method: 'POST', body, headers, dispatcher: agent, signal: signal ? AbortSignal.any([timeout, signal]) : timeout });
        // Drain so the connection can be reused; the content is never needed.
        await response.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
        return { ok: true, status: response.statusCode, durationMs: performance.now() - started };
      } catch (error) {
        return failed(error, started);
      }
    },
    async read(url, headers, options) {
      const started = performance.now();
      const checked = target(url);
      if (!checked.ok) return checked;
      try {
        const response = await request(checked.url, { method: 'GET', headers, dispatcher: agent, signal: AbortSignal.timeout(input.timeoutMs) });
        const chunks: Buffer[] = [];
        let size = 0;
        for await (const chunk of response.body as AsyncIterable<Buffer>) {
          size += chunk.length;
          if (size > options.maxBytes) {
            response.body.destroy();
            return { ok: false, error: `answer larger than ${options.maxBytes} bytes`, failure: 'too_large', durationMs: performance.now() - started };
          }
          chunks.push(chunk);
        }
        return { ok: true, status: response.statusCode, body: Buffer.concat(chunks).toString('utf8'), durationMs: performance.now() - started };
      } catch (error) {
        return failed(error, started);
      }
    },
    close: () => agent.close(),
  };
}
