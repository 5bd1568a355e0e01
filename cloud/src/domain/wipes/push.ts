import { createHmac } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { HttpPoster } from '../../adapters/http-post.js';
import { describeOutboundFailure } from '../webhooks/failure-words.js';
import type { OutboundPolicy } from '../webhooks/ssrf.js';
import { checkWebhookUrl, newSigningSecret } from '../webhooks/subscriptions.js';
import type { WipeView } from './grid.js';

export interface PushDeps {
  clock: Clock;
  /** The one outbound client (connect-time address guard), as a poster. */
  post: HttpPoster;
}

/** At most this many rows per push: a grid page is 100, selections never need more. */
export const MAX_PUSH_ROWS = 100;

/** `error` is what the user sees (a category); `detail` is for the log only. */
export type PushResult = { ok: true; status: number; pushed: number } | { ok: false; status?: number; error: string; detail: string };

/** A target URL an admin may configure, or the reason it is refused. */
export function checkPushUrl(value: unknown, policy: OutboundPolicy): { ok: true; url: string } | { ok: false; error: string } {
  const checked = checkWebhookUrl(value, policy);
  return checked.ok ? { ok: true, url: checked.value } : { ok: false, error: checked.error.replace(': use auth_type', '') };
}

/** A fresh signing secret: 32 random bytes as 64 hex characters, the webhook secrets' generator. */
export const newPushSecret: () => string = newSigningSecret;

/**
 * Sends the selected grid rows as one signed JSON POST. The signature scheme is the webhook one
 * (spec 6): `X-Erase-Engine-Signature: sha256=<hex HMAC-SHA256 of "<timestamp>.<raw body>">`,
 * so a receiver verifies pushes and webhooks with the same code.
 */
export async function pushWipes(
  deps: PushDeps,
  target: { url: string; secret: string },
  input: { accountPublicId: string; rows: readonly WipeView[] },
): Promise<PushResult> {
  const now = deps.clock.now();
  const timestamp = String(Math.floor(now.getTime() / 1000));
  const body = JSON.stringify({
    event_type: 'wipe_reports_pushed',
    account_id: input.accountPublicId,
    pushed_at: now.toISOString(),
    count: input.rows.length,
    rows: input.rows,
  });
  const signature = createHmac('sha256', target.secret).update(`${timestamp}.${body}`).digest('hex');
  const outcome = await deps.post(target.url, body, {
    'content-type': 'application/json',
    'x-erase-engine-timestamp': timestamp,
    'x-erase-engine-signature': `sha256=${signature}`,
    'x-erase-engine-event': 'wipe_reports_pushed',
  });
  if (!outcome.ok) return { ok: false, error: `push failed: ${describeOutboundFailure(outcome.failure)}`, detail: outcome.error };
  if (outcome.status < 200 || outcome.status > 299) {
    return { ok: false, status: outcome.status, error: `push failed: target answered HTTP ${outcome.status}`, detail: `HTTP ${outcome.status}` };
  }
  return { ok: true, status: outcome.status, pushed: input.rows.length };
}
