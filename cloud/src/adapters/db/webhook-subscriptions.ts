import { newId } from '@erasure/shared';
import type { WebhookAuth, WebhookAuthType, WebhookEventType } from '../../domain/webhooks/types.js';
import type { SqlRunner } from '../sql/database.js';
import { isUniqueViolation } from '../sql/errors.js';
import { notifyDeliveriesDue } from './webhook-wakeup.js';

/**
 * Where and how a stored subscription delivers: its URL, signing secret and credentials. The
 * cloud's subscriptions and the sandbox's (`sandbox_webhooks`) keep these same columns.
 */
export interface WebhookTargetColumns {
  url: string;
  signing_secret: string;
  auth_type: WebhookAuthType;
  auth_token: string | null;
  auth_username: string | null;
  auth_password: string | null;
}

/** A subscription row (migration 004) with its health, in the shape the domain uses. */
export interface SubscriptionRow extends WebhookTargetColumns {
  id: number;
  public_id: string;
  account_id: number;
  account_public_id: string;
  event_type: WebhookEventType;
  /** Further events beyond `event_type`, comma-separated (migration 015); '' for none. */
  more_event_types: string;
  active: boolean;
  failure_count: number;
  failing_since: string | null;
  auto_disabled_at: string | null;
  disabled_at: string | null;
  last_error: string | null;
  last_error_at: string | null;
  last_success_at: string | null;
  /** The secret before the last rotation, still signing until `previous_secret_expires_at`. */
  previous_signing_secret: string | null;
  previous_secret_expires_at: string | null;
  created_at: string;
  updated_at: string;
  /** Ledger counts, for the health column. */
  pending_count: number;
  failed_count: number;
}

const SELECT = `SELECT s.id, s.public_id, s.account_id, a.public_id AS account_public_id, s.event_type, s.more_event_types, s.url, s.signing_secret,
       s.auth_type, s.auth_token, s.auth_username, s.auth_password, s.active, s.failure_count, s.failing_since,
       s.auto_disabled_at, s.disabled_at, s.last_error, s.last_error_at, s.last_success_at,
       s.previous_signing_secret, s.previous_secret_expires_at, s.created_at, s.updated_at,
       (SELECT count(*) FROM webhook_deliveries d WHERE d.subscription_id = s.id AND d.status = 'pending') AS pending_count,
       (SELECT count(*) FROM webhook_deliveries d WHERE d.subscription_id = s.id AND d.status = 'failed') AS failed_count
  FROM webhook_subscriptions s JOIN accounts a ON a.id = s.account_id`;

type Raw = Omit<SubscriptionRow, 'active'> & { active: number };
const toRow = (raw: Raw | undefined): SubscriptionRow | undefined => raw && { ...raw, active: raw.active === 1 };

/** The credentials columns of an auth choice. */
const authColumns = (auth: WebhookAuth) => ({
  auth_type: auth.type,
  auth_token: auth.type === 'bearer' ? auth.token : null,
  auth_username: auth.type === 'basic' ? auth.username : null,
  auth_password: auth.type === 'basic' ? auth.password : null,
});

/** The auth a stored subscription sends with. */
export function authOf(row: Pick<SubscriptionRow, 'auth_type' | 'auth_token' | 'auth_username' | 'auth_password'>): WebhookAuth {
  if (row.auth_type === 'bearer' && row.auth_token) return { type: 'bearer', token: row.auth_token };
  if (row.auth_type === 'basic' && row.auth_username && row.auth_password !== null) {
    return { type: 'basic', username: row.auth_username, password: row.auth_password };
  }
  return { type: 'none' };
}

export async function findSubscription(db: SqlRunner, publicId: string): Promise<SubscriptionRow | undefined> {
  return toRow(await db.one<Raw>(`${SELECT} WHERE s.public_id = @publicId`, { publicId }));
}

/** The account's subscriptions, oldest first (the order they were set up in). */
export async function listSubscriptions(db: SqlRunner, accountId: number): Promise<SubscriptionRow[]> {
  return (await db.many<Raw>(`${SELECT} WHERE s.account_id = @accountId ORDER BY s.id`, { accountId })).map((raw) => toRow(raw)!);
}

/**
 * Holds the account's subscription list still until the caller's transaction ends, so a count
 * and the insert it permits cannot interleave with another instance's. SQLite's write
 * transaction already holds the whole database (BEGIN IMMEDIATE); on PostgreSQL the account row
 * is locked (NO KEY UPDATE: subscriptions' foreign keys to it are not blocked).
 */
export async function lockSubscriptionsOf(db: SqlRunner, accountId: number): Promise<void> {
  if (db.dialect === 'postgres') await db.one('SELECT id FROM accounts WHERE id = @accountId FOR NO KEY UPDATE', { accountId });
}

export async function countSubscriptions(db: SqlRunner, accountId: number): Promise<number> {
  return (await db.one<{ n: number }>('SELECT count(*) AS n FROM webhook_subscriptions WHERE account_id = @accountId', { accountId }))!.n;
}

/**
 * SQL true when subscription `alias` takes the event type bound as `@param`: its first event or
 * one of its further ones (issue 28, item 16). Plain `||` and LIKE, the same on both stores.
 */
export function takesEvent(alias: string, param: string): string {
  return `(${alias}.event_type = @${param} OR (',' || ${alias}.more_event_types || ',') LIKE ('%,' || CAST(@${param} AS TEXT) || ',%'))`;
}

/** Inserts an active subscription; undefined when the account already has this (event type, url). */
export async function createSubscription(
  db: SqlRunner,
  input: { accountId: number; eventType: WebhookEventType; moreEventTypes?: readonly WebhookEventType[]; url: string; signingSecret: string; auth: WebhookAuth; now: string },
): Promise<SubscriptionRow | undefined> {
  const publicId = newId('whk');
  const { moreEventTypes = [], ...fields } = input;
  const inserted = await db.one<{ id: number }>(
    `INSERT INTO webhook_subscriptions (public_id, account_id, event_type, more_event_types, url, signing_secret, auth_type, auth_token,
                                        auth_username, auth_password, created_at, updated_at)
     VALUES (@publicId, @accountId, @eventType, @more, @url, @signingSecret, @auth_type, @auth_token, @auth_username, @auth_password, @now, @now)
     ON CONFLICT (account_id, event_type, url) DO NOTHING RETURNING id`,
    { ...fields, more: moreEventTypes.join(','), ...authColumns(input.auth), publicId },
  );
  return inserted ? findSubscription(db, publicId) : undefined;
}

/**
 * Changes url, event type and/or credentials; false when that would duplicate another subscription.
 * On PostgreSQL the refused statement aborts the caller's transaction: after false, run nothing
 * more in it (its commit then rolls back).
 */
export async function updateSubscription(
  db: SqlRunner,
  id: number,
  changes: {
    url?: string | undefined;
    eventType?: WebhookEventType | undefined;
    /** With `eventType`: the further events (none when absent); without it: unchanged. */
    moreEventTypes?: readonly WebhookEventType[] | undefined;
    auth?: WebhookAuth | undefined;
    now: string;
  },
): Promise<boolean> {
  const auth = changes.auth ? authColumns(changes.auth) : undefined;
  try {
    await db.run(
      `UPDATE webhook_subscriptions SET url = COALESCE(@url, url), event_type = COALESCE(@eventType, event_type),
              more_event_types = COALESCE(@more, more_event_types),
              auth_type = CASE WHEN @setAuth = 1 THEN @auth_type ELSE auth_type END,
              auth_token = CASE WHEN @setAuth = 1 THEN @auth_token ELSE auth_token END,
              auth_username = CASE WHEN @setAuth = 1 THEN @auth_username ELSE auth_username END,
              auth_password = CASE WHEN @setAuth = 1 THEN @auth_password ELSE auth_password END,
              updated_at = @now
        WHERE id = @id`,
      {
        id,
        url: changes.url ?? null,
        eventType: changes.eventType ?? null,
        more: changes.eventType ? (changes.moreEventTypes ?? []).join(',') : null,
        setAuth: auth ? 1 : 0,
        auth_type: auth?.auth_type ?? null,
        auth_token: auth?.auth_token ?? null,
        auth_username: auth?.auth_username ?? null,
        auth_password: auth?.auth_password ?? null,
        now: changes.now,
      },
    );
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

/**
 * A new signing secret; the current one becomes the previous secret, which keeps signing (beside
 * the new one) until `previousExpiresAt`. A second rotation within the window drops the oldest.
 */
export async function rotateSubscriptionSecret(db: SqlRunner, id: number, input: { secret: string; previousExpiresAt: string; now: string }): Promise<void> {
  await db.run(
    `UPDATE webhook_subscriptions SET previous_signing_secret = signing_secret, previous_secret_expires_at = @expires,
            signing_secret = @secret, updated_at = @now
      WHERE id = @id`,
    { id, secret: input.secret, expires: input.previousExpiresAt, now: input.now },
  );
}

/** Removes the subscription with its ledger and attempts (ON DELETE CASCADE); events stay for others. */
export async function deleteSubscription(db: SqlRunner, id: number): Promise<void> {
  await db.run('DELETE FROM webhook_subscriptions WHERE id = @id', { id });
}

/**
 * Turns a subscription off (by hand, or `auto` after too many failures). Deliveries waiting for
 * their next attempt become `skipped`; one in flight finishes and is recorded. Re-enabling
 * redelivers everything failed or skipped from `reconcile_from` on: for an auto-disable that is
 * the start of the failure streak, so the failures that caused it are redelivered too. Two
 * statements: run inside the caller's transaction.
 */
export async function disableSubscription(db: SqlRunner, id: number, input: { now: string; auto: boolean }): Promise<void> {
  await db.run(
    `UPDATE webhook_subscriptions SET active = 0, disabled_at = @now,
            auto_disabled_at = CASE WHEN @auto = 1 THEN @now END,
            reconcile_from = CASE WHEN @auto = 1 THEN COALESCE(failing_since, @now) ELSE @now END, updated_at = @now
      WHERE id = @id AND active = 1`,
    { id, now: input.now, auto: input.auto ? 1 : 0 },
  );
  await db.run(
    `UPDATE webhook_deliveries SET status = 'skipped', next_attempt_at = NULL, updated_at = @now
      WHERE subscription_id = @id AND status = 'pending' AND (lease_until IS NULL OR lease_until < @now)`,
    { id, now: input.now },
  );
}

/**
 * Re-enables a subscription: the failure budget is reset and every delivery that failed or was
 * skipped since `reconcile_from` is due again with a fresh round of attempts. All get the same
 * due time, so the worker claims them in ledger order: oldest event first. Returns how many.
 * Run inside the caller's transaction.
 */
export async function enableSubscription(db: SqlRunner, id: number, input: { now: string; maxAttempts: number }): Promise<number> {
  // Read, then written: on PostgreSQL the row is locked (NO KEY UPDATE, which deliveries' foreign-key
  // checks do not wait for), so a concurrent enable waits and then finds it enabled.
  const disabled = await db.one<{ reconcile_from: string | null }>(
    `SELECT reconcile_from FROM webhook_subscriptions WHERE id = @id AND active = 0${db.dialect === 'postgres' ? ' FOR NO KEY UPDATE' : ''}`,
    { id },
  );
  if (!disabled) return 0; // already enabled: nothing to reconcile
  await db.run(
    `UPDATE webhook_subscriptions SET active = 1, failure_count = 0, failing_since = NULL, auto_disabled_at = NULL,
            disabled_at = NULL, reconcile_from = NULL, updated_at = @now
      WHERE id = @id`,
    { id, now: input.now },
  );
  const due = await db.run(
    `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = @now, max_attempts = attempts + @max, updated_at = @now
      WHERE subscription_id = @id AND status IN ('failed', 'skipped') AND updated_at >= @from`,
    { id, now: input.now, max: input.maxAttempts, from: disabled.reconcile_from ?? input.now },
  );
  if (due > 0) await notifyDeliveriesDue(db);
  return due;
}
