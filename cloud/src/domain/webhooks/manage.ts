import type { Clock } from '../clock.js';
import type { SqlDatabase, SqlRunner } from '../../adapters/sql/database.js';
import type * as DeliveriesDb from '../../adapters/db/webhook-deliveries.js';
import type * as SubscriptionsDb from '../../adapters/db/webhook-subscriptions.js';
import type { SubscriptionRow } from '../../adapters/db/webhook-subscriptions.js';
import type { WebhookSender } from '../../adapters/outbound-http.js';
import { attemptError, isDelivered, type DeliveryPolicy } from './policy.js';
import type { OutboundPolicy } from './ssrf.js';
import { signedDeliveryHeaders, testPingBody } from './signing.js';
import { checkAuth, checkEventTypes, checkWebhookUrl, newSigningSecret } from './subscriptions.js';
import type { WebhookAuth, WebhookEventType } from './types.js';

/** The subscription and ledger repository functions management calls (adapters/db/webhook-store.ts). */
export type WebhookStore = Pick<
  typeof SubscriptionsDb,
  | 'authOf'
  | 'lockSubscriptionsOf'
  | 'countSubscriptions'
  | 'createSubscription'
  | 'deleteSubscription'
  | 'disableSubscription'
  | 'enableSubscription'
  | 'findSubscription'
  | 'rotateSubscriptionSecret'
  | 'updateSubscription'
> &
  Pick<typeof DeliveriesDb, 'findDelivery' | 'redeliver'>;

/** Ports of subscription management (web app, admin CLI). */
export interface WebhookManageDeps {
  db: SqlDatabase;
  clock: Clock;
  store: WebhookStore;
  /** What a subscription URL may be (WEBHOOK_ALLOW_HTTP, WEBHOOK_ALLOW_LOOPBACK). */
  outbound: OutboundPolicy;
  policy: DeliveryPolicy;
  /** The transport, for test pings. */
  sender: WebhookSender;
  /** Nudges the in-process worker after deliveries became due. */
  onDue?: (() => void) | undefined;
  /** How long a rotated-out secret keeps signing (WEBHOOK_SECRET_ROLLOVER_HOURS); default 24 h. */
  secretRolloverMs?: number | undefined;
}

/** A rotated-out signing secret signs beside the new one for a day unless configured otherwise. */
export const DEFAULT_SECRET_ROLLOVER_MS = 24 * 60 * 60 * 1000;

/** The previous secret of `row` while its rollover window lasts at `at`. */
const previousSecretAt = (row: Pick<SubscriptionRow, 'previous_signing_secret' | 'previous_secret_expires_at'>, at: Date) =>
  row.previous_secret_expires_at !== null && Date.parse(row.previous_secret_expires_at) > at.getTime() ? row.previous_signing_secret : null;

export type Managed<T> = { ok: true; value: T } | { ok: false; status: 404 | 409 | 422; error: string };
const fail = (status: 404 | 409 | 422, error: string): Managed<never> => ({ ok: false, status, error });

/** Subscriptions per account: enough for every event type to several receivers. */
export const MAX_SUBSCRIPTIONS_PER_ACCOUNT = 50;

/** Where the subscription stands, for the page's health column. */
export function healthOf(row: Pick<SubscriptionRow, 'active' | 'auto_disabled_at' | 'failure_count'>): 'healthy' | 'failing' | 'auto_disabled' | 'disabled' {
  if (!row.active) return row.auto_disabled_at ? 'auto_disabled' : 'disabled';
  return row.failure_count > 0 ? 'failing' : 'healthy';
}

const now = (deps: { clock: Clock }) => deps.clock.now().toISOString();

/** Creates a subscription; the signing secret is returned this once (spec 2). */
export async function createWebhook(
  deps: WebhookManageDeps,
  accountId: number,
  body: Record<string, unknown>,
): Promise<Managed<{ row: SubscriptionRow; signingSecret: string }>> {
  const eventTypes = checkEventTypes(body);
  if (!eventTypes.ok) return fail(422, eventTypes.error);
  const url = checkWebhookUrl(body.url, deps.outbound);
  if (!url.ok) return fail(422, url.error);
  const auth = checkAuth(body);
  if (!auth.ok) return fail(422, auth.error);
  const signingSecret = newSigningSecret();
  // Counted and inserted under the account's lock: two creations racing for the last place
  // cannot both take it, on any number of instances.
  return deps.db.transaction(async (tx) => {
    await deps.store.lockSubscriptionsOf(tx, accountId);
    if ((await deps.store.countSubscriptions(tx, accountId)) >= MAX_SUBSCRIPTIONS_PER_ACCOUNT) return fail(409, `at most ${MAX_SUBSCRIPTIONS_PER_ACCOUNT} webhooks per account`);
    const row = await deps.store.createSubscription(tx, {
      accountId,
      eventType: eventTypes.value.first,
      moreEventTypes: eventTypes.value.more,
      url: url.value,
      signingSecret,
      auth: auth.value,
      now: now(deps),
    });
    return row ? { ok: true, value: { row, signingSecret } } : fail(409, 'a webhook for this event type and url already exists');
  });
}

/** The account's subscription by `whk_…` id; another account's is indistinguishable from none. */
export async function ownWebhook(deps: Pick<WebhookManageDeps, 'db' | 'store'>, accountId: number, publicId: string): Promise<Managed<SubscriptionRow>> {
  const row = await deps.store.findSubscription(deps.db, publicId);
  return row && row.account_id === accountId ? { ok: true, value: row } : fail(404, 'unknown webhook');
}

/**
 * Changes any of `url`, `event_type` or `event_types`, `auth_type` (+ credentials) and `active`. Turning
 * `active` on resets the failure budget and reconciles (see {@link setWebhookActive}).
 */
export async function changeWebhook(deps: WebhookManageDeps, row: SubscriptionRow, body: Record<string, unknown>): Promise<Managed<SubscriptionRow>> {
  let url: string | undefined;
  let eventType: WebhookEventType | undefined;
  let moreEventTypes: WebhookEventType[] | undefined;
  let auth: WebhookAuth | undefined;
  if (body.url !== undefined) {
    const checked = checkWebhookUrl(body.url, deps.outbound);
    if (!checked.ok) return fail(422, checked.error);
    url = checked.value;
  }
  if (body.event_type !== undefined || body.event_types !== undefined) {
    const checked = checkEventTypes(body);
    if (!checked.ok) return fail(422, checked.error);
    eventType = checked.value.first;
    moreEventTypes = checked.value.more;
  }
  if (body.auth_type !== undefined) {
    const checked = checkAuth(body);
    if (!checked.ok) return fail(422, checked.error);
    auth = checked.value;
  }
  if (body.active !== undefined && typeof body.active !== 'boolean') return fail(422, 'active must be true or false');
  const updated = await deps.db.transaction(async (tx) => {
    if (!(await deps.store.updateSubscription(tx, row.id, { url, eventType, moreEventTypes, auth, now: now(deps) }))) return false;
    if (typeof body.active === 'boolean') await setActive(deps, tx, row.id, body.active);
    return true;
  });
  if (!updated) return fail(409, 'a webhook for this event type and url already exists');
  return { ok: true, value: (await deps.store.findSubscription(deps.db, row.public_id))! };
}

/** Runs inside the caller's transaction `tx`. */
async function setActive(deps: WebhookManageDeps, tx: SqlRunner, id: number, active: boolean): Promise<number> {
  if (!active) {
    await deps.store.disableSubscription(tx, id, { now: now(deps), auto: false });
    return 0;
  }
  return deps.store.enableSubscription(tx, id, { now: now(deps), maxAttempts: deps.policy.maxAttempts });
}

/**
 * Enables or disables. Enabling resets `failure_count` and `auto_disabled_at` and makes every
 * delivery that failed or was skipped while it was down due again, oldest first.
 */
export async function setWebhookActive(
  deps: WebhookManageDeps,
  row: SubscriptionRow,
  active: boolean,
): Promise<{ row: SubscriptionRow; reconciled: number }> {
  const reconciled = await deps.db.transaction((tx) => setActive(deps, tx, row.id, active));
  if (reconciled > 0) deps.onDue?.();
  return { row: (await deps.store.findSubscription(deps.db, row.public_id))!, reconciled };
}

export async function removeWebhook(deps: Pick<WebhookManageDeps, 'db' | 'store'>, row: SubscriptionRow): Promise<void> {
  await deps.db.transaction((tx) => deps.store.deleteSubscription(tx, row.id));
}

/**
 * Rotates the signing secret: the new one is returned this once; the old one keeps signing
 * beside it until the rollover window ends, so the receiver can switch without a gap.
 */
export async function rotateWebhookSecret(
  deps: Pick<WebhookManageDeps, 'db' | 'clock' | 'store' | 'secretRolloverMs'>,
  row: SubscriptionRow,
): Promise<{ row: SubscriptionRow; signingSecret: string; previousSecretExpiresAt: string }> {
  const at = deps.clock.now();
  const signingSecret = newSigningSecret();
  const previousSecretExpiresAt = new Date(at.getTime() + (deps.secretRolloverMs ?? DEFAULT_SECRET_ROLLOVER_MS)).toISOString();
  await deps.db.transaction((tx) =>
    deps.store.rotateSubscriptionSecret(tx, row.id, { secret: signingSecret, previousExpiresAt: previousSecretExpiresAt, now: at.toISOString() }),
  );
  return { row: (await deps.store.findSubscription(deps.db, row.public_id))!, signingSecret, previousSecretExpiresAt };
}

/** Manual redelivery of one ledger row: due now, same `event_id`, a fresh round of attempts. */
export async function redeliverWebhook(deps: WebhookManageDeps, row: SubscriptionRow, deliveryId: number): Promise<Managed<true>> {
  if (!(await deps.store.findDelivery(deps.db, row.id, deliveryId))) return fail(404, 'unknown delivery');
  if (!row.active) return fail(409, 'the webhook is disabled: enable it first');
  const done = await deps.db.transaction((tx) => deps.store.redeliver(tx, deliveryId, { now: now(deps), maxAttempts: deps.policy.maxAttempts }));
  if (!done) return fail(409, 'an attempt is in flight; try again in a moment');
  deps.onDue?.();
  return { ok: true, value: true };
}

/** A test ping's answer; `detail` (errno, address, TLS text) is for the server log, never the user. */
export type PingResult = { ok: true; response_code: number } | { ok: false; error: string; response_code?: number; detail?: string };

/**
 * The test ping (spec 4.6): a signed POST of `{event_id, event_type, test: true, created_at}`
 * through the same guarded transport, awaited, with no ledger row and no effect on health.
 * A failure reads as the delivery log reads it: `HTTP <status>` or a category.
 */
export async function pingWebhook(deps: Pick<WebhookManageDeps, 'clock' | 'sender' | 'store'>, row: SubscriptionRow): Promise<PingResult> {
  const at = deps.clock.now();
  const body = testPingBody(row.event_type, at);
  const headers = signedDeliveryHeaders({
    secret: row.signing_secret,
    previousSecret: previousSecretAt(row, at),
    eventType: row.event_type,
    body,
    auth: deps.store.authOf(row),
    now: at,
  });
  const outcome = await deps.sender.send(row.url, body, headers);
  if (isDelivered(outcome) && outcome.ok) return { ok: true, response_code: outcome.status };
  const error = attemptError(outcome) ?? 'failed';
  if (outcome.ok) return { ok: false, error, response_code: outcome.status };
  return { ok: false, error, detail: outcome.error };
}
