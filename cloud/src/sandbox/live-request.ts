import type { OutboundClient } from '../adapters/outbound-http.js';
import { describeOutboundFailure } from '../domain/webhooks/failure-words.js';
import { refusedHostnameReason, type OutboundFailure, type OutboundPolicy } from '../domain/webhooks/ssrf.js';

/** What `POST /sandbox/live_request` answers (spec 4.6); `detail` is for the server log only. */
export type LiveOutcome =
  | { status: 200; body: { status: number; ok: boolean; body: unknown } }
  | { status: 422 | 502; body: { error: string }; detail?: string };

export interface LiveRequestDeps {
  /** The one outbound client's GET: the connect-time address guard judges every address. */
  read: OutboundClient['read'];
  /** The sandbox's outbound policy (WEBHOOK_ALLOW_LOOPBACK), for the check before any DNS. */
  policy: Pick<OutboundPolicy, 'allowLoopback'>;
}

/** The largest answer passed through: a page of the public API is far below it. */
export const LIVE_ANSWER_LIMIT_BYTES = 4 * 1024 * 1024;

const scalar = (v: unknown): v is string | number | boolean => ['string', 'number', 'boolean'].includes(typeof v);

/**
 * A failed request in the words Push and webhooks use. A refused address is a bad `base_url`
 * (422); anything else is an unreachable target (502). Neither says where a name resolved,
 * which port was closed or what the TLS library said: that would make this a network scanner.
 */
const failed = (failure: OutboundFailure, detail: string): LiveOutcome => ({
  status: failure === 'refused' ? 422 : 502,
  body: { error: `live request failed: ${describeOutboundFailure(failure)}` },
  detail,
});

/**
 * Proxies one read-only request to the real public API: GET only, and only under `/api/`. The
 * path check runs on the URL after normalisation, so `/api/../internal` cannot slip out. The
 * request goes through the one guarded outbound client, so `base_url` can name no internal
 * address (loopback only in WEBHOOK_ALLOW_LOOPBACK mode), whatever its spelling or DNS says.
 */
export async function liveRequest(input: Record<string, unknown>, deps: LiveRequestDeps): Promise<LiveOutcome> {
  const refuse = (error: string): LiveOutcome => ({ status: 422, body: { error } });
  const { base_url: baseUrl, api_key: apiKey, path, query } = input;
  if (typeof baseUrl !== 'string' || !URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol)) {
    return refuse('base_url must be an absolute http:// or https:// URL');
  }
  if (typeof apiKey !== 'string' || apiKey.trim() === '') return refuse('api_key is required');
  if (typeof path !== 'string' || !path.startsWith('/api/')) return refuse('path must start with /api/');
  if (query !== undefined && (typeof query !== 'object' || query === null || Array.isArray(query) || !Object.values(query).every(scalar))) {
    return refuse('query must be an object of string, number or boolean values');
  }
  const base = new URL(baseUrl);
  const prefix = base.pathname.replace(/\/+$/, '');
  const target = new URL(`${base.origin}${prefix}${path}`);
  if (!target.pathname.startsWith(`${prefix}/api/`)) return refuse('path must start with /api/');
  for (const [name, value] of Object.entries((query ?? {}) as Record<string, string | number | boolean>)) {
    target.searchParams.set(name, String(value));
  }
  // Names the guard never sees as addresses (metadata hosts, `localhost`) are refused up front.
  const named = refusedHostnameReason(target.hostname, deps.policy);
  if (named) return failed('refused', `refused destination ${target.host}: ${named}`);
  const answer = await deps.read(target.href, { authorization: `Bearer ${apiKey}`, accept: 'application/json' }, { maxBytes: LIVE_ANSWER_LIMIT_BYTES });
  if (!answer.ok) return failed(answer.failure, answer.error);
  let body: unknown = answer.body === '' ? null : answer.body;
  try {
    if (answer.body !== '') body = JSON.parse(answer.body);
  } catch {
    // not JSON: passed through as text
  }
  return { status: 200, body: { status: answer.status, ok: answer.status >= 200 && answer.status <= 299, body } };
}
