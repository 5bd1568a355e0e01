import { AsyncResource } from 'node:async_hooks';
import { timingSafeEqual } from 'node:crypto';
import { hmacSignature, newUuid } from '@erasure/shared';
import { isoNow, type Clock } from '../../adapters/clock.js';
import type { HttpPoster } from '../../adapters/http-post.js';
import {
  abandonDelivery,
  findPendingDelivery,
  insertPendingDelivery,
  insertSinkCapture,
  listSinkCaptures,
  settleDelivery,
} from '../../adapters/db/sandbox/deliveries.js';
import { activeSubscriptions, type SandboxEventType, type SandboxWebhook } from '../../adapters/db/sandbox/webhooks.js';
import type { SqlDatabase, SqlRunner } from '../../adapters/sql/database.js';
import type { DeviceEvents } from '../../domain/device/events.js';
import { describeOutboundFailure } from '../../domain/webhooks/failure-words.js';
import { SINGLE_ATTEMPT_POLICY } from '../../domain/webhooks/policy.js';
import { signedDeliveryHeaders, WEBHOOK_HEADERS } from '../../domain/webhooks/signing.js';
import type { WebhookAuth } from '../../domain/webhooks/types.js';
import { certificateGenerated, pendingEvent, type PendingEvent } from './payloads.js';

/** The URL of the built-in receiver: no HTTP, always succeeds, keeps a capture (spec 4.6). */
export const SINK_URL = 'sandbox://sink';

type Target = Pick<SandboxWebhook, 'prefix_id' | 'url' | 'signing_secret' | 'auth_type' | 'auth_token' | 'auth_username' | 'auth_password'>;

/** A stored subscription's credentials in the shape of the cloud's signer. */
const authOf = (t: Target): WebhookAuth =>
  t.auth_type === 'bearer' && t.auth_token
    ? { type: 'bearer', token: t.auth_token }
    : t.auth_type === 'basic' && t.auth_username !== null
      ? { type: 'basic', username: t.auth_username, password: t.auth_password ?? '' }
      : { type: 'none' };

export type AttemptOutcome = { ok: true; responseCode: number } | { ok: false; responseCode: number | null; error: string };

export interface SandboxWebhooksDeps {
  /** The sandbox's SQLite store; events write on the device write's own transaction instead. */
  db: SqlDatabase;
  clock: Clock;
  /** One POST with the 10-second timeout of spec 8. */
  post: HttpPoster;
  /** The sandbox's own base URL, for `verify_url` in `certificate_generated`. */
  publicBaseUrl: string;
  /** Gets a failed POST's detail (errno, resolved address); the ledger and pings show its category. */
  log?: { warn(details: object, message: string): void } | undefined;
}

/**
 * Sandbox webhooks (spec 6, "Delivery policy: Sandbox"): each event inserts a `pending` ledger
 * row per active subscription inside the device write's transaction, and one attempt per row
 * runs after that transaction. No retry; 5 consecutive failures auto-disable. A subscription's
 * attempts run one at a time, in event order, each after re-reading `active`, so nothing is
 * sent after the failure that disabled it.
 */
export function createSandboxWebhooks(deps: SandboxWebhooksDeps) {
  const inFlight = new Set<Promise<void>>();
  /** Per subscription: the tail of its queue of attempts. */
  const queues = new Map<number, Promise<void>>();
  /**
   * Runs `schedule` in the async context this object was built in, outside any transaction.
   * Attempts are queued from inside the device write's transaction, and promises and timers
   * inherit the context they were made in: without this the attempt's own statements would
   * count as "inside its own transaction" and be refused by the store.
   */
  const outsideTransactions = AsyncResource.bind((schedule: () => void): void => schedule());

  /** One signed POST (or sink capture) to a subscription's URL. */
  async function attempt(target: Target, eventType: string, body: string): Promise<AttemptOutcome> {
    const headers = signedDeliveryHeaders({
      secret: target.signing_secret, eventType: eventType as SandboxEventType, body, auth: authOf(target), now: deps.clock.now(),
    });
    if (target.url === SINK_URL) {
      await insertSinkCapture(deps.db, { webhookPrefixId: target.prefix_id, eventType, headers, body, now: isoNow(deps.clock) });
      return { ok: true, responseCode: 200 };
    }
    const outcome = await deps.post(target.url, body, headers);
    if (!outcome.ok) {
      deps.log?.warn({ webhook: target.prefix_id, url: target.url, error: outcome.error }, 'sandbox webhook POST failed');
      return { ok: false, responseCode: null, error: describeOutboundFailure(outcome.failure) };
    }
    if (outcome.status >= 200 && outcome.status < 300) return { ok: true, responseCode: outcome.status };
    return { ok: false, responseCode: outcome.status, error: `HTTP ${outcome.status}` };
  }

  async function deliver(deliveryId: number): Promise<void> {
    // Gone when the device write rolled back; settled when something already ran it.
    const row = await findPendingDelivery(deps.db, deliveryId);
    if (!row) return;
    if (row.active !== 1) {
      await abandonDelivery(deps.db, { deliveryId, error: 'subscription disabled before this attempt' });
      return;
    }
    const outcome = await attempt(row, row.event_type, row.payload);
    await settleDelivery(deps.db, {
      deliveryId,
      webhookId: row.webhook_id,
      delivered: outcome.ok,
      responseCode: outcome.responseCode,
      error: outcome.ok ? null : outcome.error,
      autoDisableAfter: SINGLE_ATTEMPT_POLICY.autoDisableAfter,
      now: isoNow(deps.clock),
    });
  }

  /** Queues one delivery's attempt behind its subscription's earlier ones. */
  function enqueue(subscriptionId: number, deliveryId: number): void {
    // The setImmediate lets the device write's transaction go on; the attempt's first read then
    // waits for that transaction to end, since the SQLite store runs no statement beside an
    // open transaction: a committed row is found, a rolled-back one is not.
    const previous = queues.get(subscriptionId) ?? Promise.resolve();
    const run = previous.then(() => new Promise<void>((resolve) => setImmediate(resolve))).then(() => deliver(deliveryId));
    const tracked: Promise<void> = run.catch(() => undefined).finally(() => {
      inFlight.delete(tracked);
      if (queues.get(subscriptionId) === tracked) queues.delete(subscriptionId);
    });
    queues.set(subscriptionId, tracked);
    inFlight.add(tracked);
  }

  /** Inserts the ledger rows of one event on the device write's transaction `db`, and queues their attempts. */
  async function fanOut(db: SqlRunner, accountId: number, event: PendingEvent): Promise<void> {
    const now = isoNow(deps.clock);
    for (const sub of await activeSubscriptions(db, accountId, event.eventType)) {
      const eventId = newUuid();
      // The payload text is stored exactly as it will be signed and sent.
      const payload = JSON.stringify(event.payload({ event_id: eventId, event_type: event.eventType, created_at: now, revision: event.revision }));
      const id = await insertPendingDelivery(db, { webhookId: sub.id, accountId, eventId, eventType: event.eventType, payload, now });
      outsideTransactions(() => enqueue(sub.id, id));
    }
  }

  const events: DeviceEvents = {
    async emit(db, event) {
      const pending = await pendingEvent(db, event, isoNow(deps.clock), deps.publicBaseUrl);
      if (!pending) return;
      await fanOut(db, event.token.account_id, pending);
      // Spec 1: certificate_generated fires inline with the wipe result in the sandbox.
      if (event.type === 'wipe_session_completed') {
        const generated = await certificateGenerated(db, event.token, event.wipeResultId, deps.publicBaseUrl);
        if (generated) await fanOut(db, event.token.account_id, generated);
      }
    },
  };

  return {
    events,
    /** Test ping (spec 4.6): signed synthetic POST, no ledger row, no effect on the failure budget. */
    async ping(webhook: SandboxWebhook): Promise<{ ok: true; response_code: number } | { ok: false; error: string }> {
      const body = JSON.stringify({ event_id: newUuid(), event_type: webhook.event_type, test: true, created_at: isoNow(deps.clock) });
      const outcome = await attempt(webhook, webhook.event_type, body);
      return outcome.ok ? { ok: true, response_code: outcome.responseCode } : { ok: false, error: outcome.error };
    },
    /** Resolves once every attempt started so far has settled (tests, shutdown). */
    async idle(): Promise<void> {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
  };
}

export type SandboxWebhooks = ReturnType<typeof createSandboxWebhooks>;

/** Spec 2 "Sink capture", `signature_valid` recomputed with the subscription's current secret. */
export async function sinkCaptures(db: SqlRunner) {
  return (await listSinkCaptures(db)).map((c) => {
    const headers = JSON.parse(c.headers) as Record<string, string>;
    const given = Buffer.from(headers[WEBHOOK_HEADERS.signature] ?? '');
    const expected = Buffer.from(c.signing_secret ? hmacSignature(c.signing_secret, headers[WEBHOOK_HEADERS.timestamp] ?? '', c.body) : '');
    return {
      webhook_prefix_id: c.webhook_prefix_id,
      event_type: c.event_type,
      signature_valid: expected.length > 0 && expected.length === given.length && timingSafeEqual(expected, given),
      headers,
      body: c.body,
      received_at: c.received_at,
    };
  });
}
