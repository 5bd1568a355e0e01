import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Agent, buildConnector, request } from 'undici';
import type { AttemptOutcome } from '../domain/webhooks/policy.js';
import { refusedAddressReason, WebhookDestinationRefusedError } from '../domain/webhooks/ssrf.js';

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
export function guardedLookup(resolve: Resolve = systemResolve) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolve(hostname, (error, addresses) => {
      if (error) return callback(error, []);
      if (addresses.length === 0) return callback(new Error(`${hostname} has no address`), []);
      for (const { address } of addresses) {
        const reason = refusedAddressReason(address);
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
export function guardedConnector(input: { timeoutMs: number; resolve?: Resolve }): buildConnector.connector {
  const base = buildConnector({ timeout: input.timeoutMs, lookup: guardedLookup(input.resolve) } as buildConnector.BuildOptions);
  return (options, callback) => {
    const literal = options.hostname.replace(/^\[|\]$/g, '');
    if (isIP(literal)) {
      const reason = refusedAddressReason(literal);
      if (reason) {
        callback(new WebhookDestinationRefusedError(options.hostname, literal, reason), null);
        return;
      }
    }
    base(options, callback);
  };
}

/** Sends one signed delivery; failures come back as values. */
export interface WebhookSender {
  send(url: string, body: string, headers: Record<string, string>): Promise<AttemptOutcome>;
  close(): Promise<void>;
}

const messageOf = (error: unknown, timeoutMs: number): string => {
  const seen = new Set<unknown>();
  for (let e: unknown = error; e instanceof Error && !seen.has(e); e = e.cause) {
    seen.add(e);
    if (e instanceof WebhookDestinationRefusedError) return e.message;
    if (e.name === 'TimeoutError' || e.name === 'AbortError' || (e as { code?: string }).code === 'UND_ERR_HEADERS_TIMEOUT') {
      return `no answer within ${timeoutMs / 1000} s`;
    }
  }
  const e = error as { code?: string; message?: string };
  return [e.code, e.message].filter(Boolean).join(': ') || 'request failed';
};

/**
 * The delivery transport: one keep-alive undici Agent, a hard timeout over the whole exchange,
 * redirects never followed (a 3xx is just a non-2xx), the response body drained and dropped.
 * Outside allow-http mode every connection goes through the SSRF guard.
 */
export function createWebhookSender(input: { allowHttp: boolean; timeoutMs: number; connections?: number; resolve?: Resolve }): WebhookSender {
  const agent = new Agent({
    connections: input.connections ?? 64,
    keepAliveTimeout: 10_000,
    headersTimeout: input.timeoutMs,
    bodyTimeout: input.timeoutMs,
    connect: input.allowHttp ? { timeout: input.timeoutMs } : guardedConnector(input),
  });
  return {
    async send(url, body, headers) {
      const started = performance.now();
      try {
        const response = await request(url, { method: 'POST', body, headers, dispatcher: agent, signal: AbortSignal.timeout(input.timeoutMs) });
        // Drain so the connection can be reused; the content is never needed.
        await response.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
        return { ok: true, status: response.statusCode, durationMs: performance.now() - started };
      } catch (error) {
        return { ok: false, error: messageOf(error, input.timeoutMs).slice(0, 500), durationMs: performance.now() - started };
      }
    },
    close: () => agent.close(),
  };
}
