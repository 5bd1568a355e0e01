import { randomBytes } from 'node:crypto';
import { refusedHostnameReason, type OutboundPolicy } from './ssrf.js';
import { isEventType, WEBHOOK_AUTH_TYPES, WEBHOOK_EVENT_TYPES, type WebhookAuth, type WebhookAuthType, type WebhookEventType } from './types.js';

/** 32 random bytes as 64 hex characters (spec 8). */
export const newSigningSecret = (): string => randomBytes(32).toString('hex');

type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

/**
 * An outbound target URL (webhooks, the wipes grid's Push): a string of at most 2000 characters
 * that parses as an absolute https URL, or http in WEBHOOK_ALLOW_HTTP mode.
 */
function parseTargetUrl(value: unknown, allowHttp: boolean): Checked<URL> {
  if (typeof value !== 'string' || value.length > 2000) return { ok: false, error: 'url must be an absolute https URL' };
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return { ok: false, error: 'url must be an absolute https URL' };
  }
  if (url.protocol !== 'https:' && !(allowHttp && url.protocol === 'http:')) {
    return { ok: false, error: allowHttp ? 'url must be http or https' : 'url must use https' };
  }
  return { ok: true, value: url };
}

/**
 * A destination the cloud may be told to POST to (a webhook subscription, the wipes grid's Push):
 * a {@link parseTargetUrl} target with no credentials in the URL, whose host is not a refused
 * literal in any spelling (WHATWG parsing turns `2130706433`, `0x7f.1` and `127.1` into
 * `127.0.0.1`) nor a well-known internal name. This is early feedback; the connect-time guard
 * of the outbound client is what enforces it, on every address a name resolves to.
 */
export function checkWebhookUrl(value: unknown, policy: OutboundPolicy): Checked<string> {
  const parsed = parseTargetUrl(value, policy.allowHttp);
  if (!parsed.ok) return parsed;
  const url = parsed.value;
  if (url.username || url.password) return { ok: false, error: 'url must not carry credentials: use auth_type' };
  const reason = refusedHostnameReason(url.hostname, policy);
  if (reason) return { ok: false, error: `url points to a ${reason} address` };
  url.hash = '';
  return { ok: true, value: url.toString() };
}

export function checkEventType(value: unknown): Checked<WebhookEventType> {
  return isEventType(value) ? { ok: true, value } : { ok: false, error: `event_type must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}` };
}

/** Every event a stored subscription takes, its first one first (`more_event_types`: comma-separated, '' for none). */
export function eventTypesOf(row: { event_type: WebhookEventType; more_event_types: string }): WebhookEventType[] {
  return [row.event_type, ...(row.more_event_types === '' ? [] : (row.more_event_types.split(',') as WebhookEventType[]))];
}

/**
 * The events a subscription takes: `event_types` (several, issue 28 item 16) or `event_type`
 * (one, as before). Several are kept in the spec's order; the first is the subscription's
 * `event_type`, the rest its further events. Sent together, `event_type` must be one of them.
 */
export function checkEventTypes(body: Record<string, unknown>): Checked<{ first: WebhookEventType; more: WebhookEventType[] }> {
  if (body.event_types === undefined) {
    const one = checkEventType(body.event_type);
    return one.ok ? { ok: true, value: { first: one.value, more: [] } } : one;
  }
  const given = body.event_types;
  if (!Array.isArray(given) || given.length === 0 || !given.every(isEventType)) {
    return { ok: false, error: `event_types must be a non-empty list of ${WEBHOOK_EVENT_TYPES.join(', ')}` };
  }
  const list = WEBHOOK_EVENT_TYPES.filter((type) => given.includes(type));
  if (body.event_type !== undefined && !list.includes(body.event_type as WebhookEventType)) {
    return { ok: false, error: 'event_type, sent with event_types, must be one of them' };
  }
  return { ok: true, value: { first: list[0]!, more: list.slice(1) } };
}

const text = (value: unknown, max: number): string | undefined =>
  typeof value === 'string' && value !== '' && value.length <= max && !/[\r\n]/.test(value) ? value : undefined;

/**
 * Credentials for `auth_type` from a request body: `token` for bearer, `username` and
 * `password` for basic (a basic username may not contain a colon, RFC 7617).
 */
export function checkAuth(body: Record<string, unknown>): Checked<WebhookAuth> {
  const type = body.auth_type ?? 'none';
  if (typeof type !== 'string' || !(WEBHOOK_AUTH_TYPES as readonly string[]).includes(type)) {
    return { ok: false, error: `auth_type must be one of ${WEBHOOK_AUTH_TYPES.join(', ')}` };
  }
  switch (type as WebhookAuthType) {
    case 'none':
      return { ok: true, value: { type: 'none' } };
    case 'bearer': {
      const token = text(body.token, 4000);
      return token ? { ok: true, value: { type: 'bearer', token } } : { ok: false, error: 'bearer auth needs a token' };
    }
    case 'basic': {
      const username = text(body.username, 200);
      const password = text(body.password, 1000);
      if (!username || username.includes(':') || !password) return { ok: false, error: 'basic auth needs a username (no colon) and a password' };
      return { ok: true, value: { type: 'basic', username, password } };
    }
  }
}
