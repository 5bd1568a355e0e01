import { createHash } from 'node:crypto';
import type { Clock } from '../adapters/clock.js';

/** The real account a valid API key stands for: the defaults of minted tokens and webhooks (spec 5.5). */
export interface RealAccount {
  account_id: string;
  account_name: string;
  user_email: string | null;
}

export type KeyCheck =
  | { kind: 'anonymous' }
  | { kind: 'valid'; account: RealAccount }
  | { kind: 'invalid' }
  | { kind: 'unreachable'; error: string };

/** Spec 8: a key's verdict is kept 60 seconds. */
export const API_KEY_CACHE_MS = 60_000;

type Fetch = typeof fetch;

const record = (v: unknown): Record<string, unknown> | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

/**
 * Validates a bearer API key live against the real web application (`GET /api/v1/accounts` and
 * `GET /api/v1/me` at WEBAPP_BASE_URL), caching each verdict (valid or rejected) per key for
 * {@link API_KEY_CACHE_MS}. An unreachable web application is not a verdict: it is not cached
 * and the request fails rather than silently running anonymous.
 */
export function createApiKeyCheck(deps: { webappBaseUrl: string; clock: Clock; fetch?: Fetch; ttlMs?: number }) {
  const cache = new Map<string, { until: number; check: KeyCheck }>();
  const base = deps.webappBaseUrl.replace(/\/+$/, '');
  const doFetch = deps.fetch ?? fetch;

  async function getJson(path: string, key: string): Promise<{ status: number; body: unknown }> {
    const response = await doFetch(`${base}${path}`, {
      headers: { authorization: `Bearer ${key}`, accept: 'application/json' },
      redirect: 'manual',
      signal: AbortSignal.timeout(10_000),
    });
    const text = await response.text();
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status: response.status, body };
  }

  async function ask(key: string): Promise<KeyCheck> {
    let accounts: { status: number; body: unknown };
    let me: { status: number; body: unknown };
    try {
      [accounts, me] = await Promise.all([getJson('/api/v1/accounts', key), getJson('/api/v1/me', key)]);
    } catch (error) {
      return { kind: 'unreachable', error: error instanceof Error ? error.message : String(error) };
    }
    // Only the web application's own refusal (401/403) is a verdict on the key; a 5xx or any
    // other answer says nothing about it and is treated like an unreachable web application.
    const statuses = [accounts.status, me.status];
    if (statuses.some((s) => s === 401 || s === 403)) return { kind: 'invalid' };
    if (statuses.some((s) => s !== 200)) return { kind: 'unreachable', error: `web application answered ${statuses.join('/')}` };
    const first = record((record(accounts.body)?.accounts as unknown[] | undefined)?.[0]);
    const meBody = record(me.body);
    const accountId = typeof first?.id === 'string' ? first.id : meBody?.account_id;
    const name = typeof first?.name === 'string' ? first.name : meBody?.account_name;
    // A 200 without an account is not a key we can act for: fail closed.
    if (typeof accountId !== 'string' || typeof name !== 'string') return { kind: 'invalid' };
    const email = meBody?.user_email;
    return { kind: 'valid', account: { account_id: accountId, account_name: name, user_email: typeof email === 'string' ? email : null } };
  }

  /** The verdict for an `Authorization` header; no header (or not a bearer) is anonymous. */
  return async function checkApiKey(authorization: string | undefined): Promise<KeyCheck> {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    if (!authorization) return { kind: 'anonymous' };
    if (!match) return { kind: 'invalid' };
    const key = match[1]!;
    const id = createHash('sha256').update(key).digest('hex');
    const now = deps.clock.now().getTime();
    const hit = cache.get(id);
    if (hit && hit.until > now) return hit.check;
    const check = await ask(key);
    if (check.kind === 'valid' || check.kind === 'invalid') cache.set(id, { until: now + (deps.ttlMs ?? API_KEY_CACHE_MS), check });
    return check;
  };
}

export type ApiKeyCheck = ReturnType<typeof createApiKeyCheck>;
