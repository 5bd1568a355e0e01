import type { AttemptOutcome, NextStep } from '../../domain/webhooks/policy.js';
import type { DeliveryStatus, WebhookEventType } from '../../domain/webhooks/types.js';
import type { SqlRunner } from '../sql/database.js';
import { authOf, disableSubscription } from './webhook-subscriptions.js';
import type { WebhookAuth } from '../../domain/webhooks/types.js';
import { notifyDeliveriesDue } from './webhook-wakeup.js';

/** A delivery a worker holds: `attempts` after this claim is the lease's fencing token. */
export interface ClaimedDelivery {
  id: number;
  attempts: number;
  max_attempts: number;
  subscription_id: number;
  event_id: string;
  event_type: WebhookEventType;
  payload: string;
  url: string;
  signing_secret: string;
  /** The pre-rotation secret while its rollover window lasts, else null. */
  previous_signing_secret: string | null;
  auth: WebhookAuth;
}

const DUE = `status = 'pending' AND next_attempt_at <= @now AND (lease_until IS NULL OR lease_until < @now)`;

/** A subscription's oldest due delivery (null when none is due). */
const NEXT_DUE = `(SELECT d.id FROM webhook_deliveries d
                    WHERE d.subscription_id = s.id AND d.status = 'pending' AND d.next_attempt_at <= @now
                      AND (d.lease_until IS NULL OR d.lease_until < @now)
                    ORDER BY d.event_id, d.id LIMIT 1)`;

/** No delivery of the subscription is in flight (held by a live lease). */
const NONE_IN_FLIGHT = `NOT EXISTS (SELECT 1 FROM webhook_deliveries h WHERE h.subscription_id = s.id AND h.status = 'pending' AND h.lease_until >= @now)`;

/**
 * The deliveries to claim, one per subscription, oldest first. On PostgreSQL each chosen
 * subscription is row-locked, skipping those another worker holds (SKIP LOCKED): workers on
 * several hosts claiming at once take different subscriptions instead of queueing behind one
 * another, and one subscription is never claimed by two of them at once. The lock is NO KEY
 * UPDATE, which the foreign-key checks of device transactions inserting deliveries do not wait
 * for. On SQLite the single writer serialises claims.
 */
const CANDIDATES = {
  sqlite: `SELECT next_id FROM (
             SELECT ${NEXT_DUE} AS next_id
               FROM webhook_subscriptions s
              WHERE s.active = 1
                AND EXISTS (SELECT 1 FROM webhook_deliveries p WHERE p.subscription_id = s.id AND p.status = 'pending')
                AND ${NONE_IN_FLIGHT}) candidates
            WHERE next_id IS NOT NULL
            ORDER BY next_id LIMIT @limit`,
  postgres: `SELECT ${NEXT_DUE} AS next_id
               FROM webhook_subscriptions s
              WHERE s.active = 1
                AND EXISTS (SELECT 1 FROM webhook_deliveries p
                             WHERE p.subscription_id = s.id AND p.status = 'pending' AND p.next_attempt_at <= @now
                               AND (p.lease_until IS NULL OR p.lease_until < @now))
                AND ${NONE_IN_FLIGHT}
              ORDER BY next_id LIMIT @limit
              FOR NO KEY UPDATE OF s SKIP LOCKED`,
};

/**
 * Claims up to `limit` due deliveries in one UPDATE … RETURNING: pending rows whose time has come
 * and that no live lease holds (a dead worker's lease runs out), of enabled subscriptions only.
 * A subscription gets one attempt at a time: per subscription only its oldest due delivery is a
 * candidate, and none while another of its deliveries is in flight (held by a live lease, in this
 * worker or any other). The subscription's `active` is read in the same statement, so the attempt
 * after the one that auto-disabled it is never claimed. The conditions are repeated on the outer
 * UPDATE so two workers that picked the same ids cannot both win (on PostgreSQL the UPDATE
 * re-checks them on the row's newest version after waiting for its lock); each claim increments
 * `attempts`. It walks subscriptions, not the backlog, through partial indexes on pending rows
 * (migration 008), so its cost does not grow with a subscription's queue. Run inside a
 * transaction (the worker's turn), so the rows it claimed are read before anything else can
 * change them.
 */
export async function claimDeliveries(db: SqlRunner, input: { now: string; leaseUntil: string; limit: number }): Promise<ClaimedDelivery[]> {
  const claimed = await db.many<{ id: number }>(
    `UPDATE webhook_deliveries SET attempts = attempts + 1, lease_until = @lease, updated_at = @now
      WHERE id IN (${CANDIDATES[db.dialect]})
        AND ${DUE}
        AND NOT EXISTS (SELECT 1 FROM webhook_deliveries h
                         WHERE h.subscription_id = webhook_deliveries.subscription_id AND h.status = 'pending' AND h.lease_until >= @now)
     RETURNING id`,
    { now: input.now, lease: input.leaseUntil, limit: input.limit },
  );
  const held: ClaimedDelivery[] = [];
  for (const { id } of claimed) {
    const row = (await db.one<Omit<ClaimedDelivery, 'auth'> & Parameters<typeof authOf>[0]>(
      `SELECT d.id, d.attempts, d.max_attempts, d.subscription_id, e.event_id, e.event_type, e.payload,
              s.url, s.signing_secret, s.auth_type, s.auth_token, s.auth_username, s.auth_password,
              CASE WHEN s.previous_secret_expires_at > @now THEN s.previous_signing_secret END AS previous_signing_secret
         FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id JOIN webhook_subscriptions s ON s.id = d.subscription_id
        WHERE d.id = @id`,
      { id, now: input.now },
    ))!;
    const { auth_type, auth_token, auth_username, auth_password, ...rest } = row;
    held.push({ ...rest, auth: authOf({ auth_type, auth_token, auth_username, auth_password }) });
  }
  // RETURNING order is unspecified: sort so the oldest is sent first.
  return held.sort((a, b) => a.id - b.id);
}

/** One finished attempt, ready to be recorded. */
export interface AttemptRecord {
  delivery: Pick<ClaimedDelivery, 'id' | 'attempts' | 'subscription_id'>;
  outcome: AttemptOutcome;
  step: NextStep;
  error: string | null;
  attemptedAt: string;
}

/**
 * Records one attempt, fenced on the claim: nothing is written when another worker took the
 * delivery over (its claim raised `attempts`). Updates the ledger row, the attempt log and the
 * subscription's health; the `autoDisableAfter`-th consecutive failure disables it. Returns
 * false when the lease was lost. Run inside a transaction (the worker batches several).
 */
export async function recordAttempt(db: SqlRunner, record: AttemptRecord, input: { now: string; autoDisableAfter: number }): Promise<boolean> {
  const { delivery, outcome, step, error, now } = { ...record, now: input.now };
  const status: DeliveryStatus = step.status === 'retry' ? 'pending' : step.status;
  const nextAt = step.status === 'retry' ? new Date(Date.parse(now) + step.delayMs).toISOString() : null;
  const responseCode = 'status' in outcome && outcome.status !== undefined ? outcome.status : null;
  const updated = await db.run(
    `UPDATE webhook_deliveries SET status = @status, next_attempt_at = @nextAt, lease_until = NULL, response_code = @code,
            last_error = @error, delivered_at = CASE WHEN @status = 'delivered' THEN @now ELSE delivered_at END, updated_at = @now
      WHERE id = @id AND attempts = @attempts AND status = 'pending' AND lease_until IS NOT NULL`,
    { status, nextAt, code: responseCode, error, now, id: delivery.id, attempts: delivery.attempts },
  );
  if (updated === 0) return false;
  await db.run(
    `INSERT INTO webhook_attempts (delivery_id, attempt, outcome, response_code, error, duration_ms, attempted_at)
     VALUES (@id, @attempt, @outcome, @code, @error, @durationMs, @attemptedAt) ON CONFLICT (delivery_id, attempt) DO NOTHING`,
    {
      id: delivery.id,
      attempt: delivery.attempts,
      outcome: step.status === 'delivered' ? 'delivered' : 'failed',
      code: responseCode,
      error,
      durationMs: Math.round(outcome.durationMs),
      attemptedAt: record.attemptedAt,
    },
  );

  if (step.status === 'delivered') {
    await db.run(
      `UPDATE webhook_subscriptions SET failure_count = 0, failing_since = NULL, last_success_at = @now WHERE id = @id AND active = 1`,
      { id: delivery.subscription_id, now },
    );
    return true;
  }
  const health = await db.one<{ failure_count: number }>(
    `UPDATE webhook_subscriptions SET failure_count = failure_count + 1, failing_since = COALESCE(failing_since, @now),
            last_error = @error, last_error_at = @now
      WHERE id = @id AND active = 1 RETURNING failure_count`,
    { id: delivery.subscription_id, now, error },
  );
  if (health && health.failure_count >= input.autoDisableAfter) {
    await disableSubscription(db, delivery.subscription_id, { now, auto: true });
  } else if (!health && status === 'pending') {
    // Finished after its subscription was disabled: wait with the others for re-enabling.
    await db.run(`UPDATE webhook_deliveries SET status = 'skipped', next_attempt_at = NULL WHERE id = @id`, { id: delivery.id });
  }
  return true;
}

/**
 * Gives a claimed delivery back unattempted, due now: a stopping worker cut its attempt short,
 * so it is neither a success nor the receiver's failure (no attempt logged, subscription health
 * untouched) and the claim's attempt is returned. Fenced like {@link recordAttempt}: the lease
 * goes, so nothing else of this claim can record, and the next claim raises `attempts` again.
 * Returns false when the lease was lost.
 */
export async function handBackDelivery(db: SqlRunner, delivery: Pick<ClaimedDelivery, 'id' | 'attempts'>, now: string): Promise<boolean> {
  const updated = await db.run(
    `UPDATE webhook_deliveries SET attempts = attempts - 1, lease_until = NULL, updated_at = @now
      WHERE id = @id AND attempts = @attempts AND status = 'pending' AND lease_until IS NOT NULL`,
    { now, id: delivery.id, attempts: delivery.attempts },
  );
  if (updated === 1) await notifyDeliveriesDue(db);
  return updated === 1;
}

/**
 * Makes one delivery due now with a fresh round of attempts (manual redelivery). Refused
 * (false) while an attempt is in flight.
 */
export async function redeliver(db: SqlRunner, deliveryId: number, input: { now: string; maxAttempts: number }): Promise<boolean> {
  const due =
    (await db.run(
      `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = @now, max_attempts = attempts + @max, updated_at = @now
        WHERE id = @id AND (lease_until IS NULL OR lease_until < @now)`,
      { id: deliveryId, now: input.now, max: input.maxAttempts },
    )) === 1;
  if (due) await notifyDeliveriesDue(db);
  return due;
}

/** A ledger row as the delivery log shows it (spec 2 "Delivery ledger row"), with its attempts. */
export interface DeliveryLogRow {
  id: number;
  event_id: string;
  event_type: WebhookEventType;
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  max_attempts: number;
  response_code: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  delivered_at: string | null;
  created_at: string;
  updated_at: string;
  attempt_log: { attempt: number; outcome: 'delivered' | 'failed'; response_code: number | null; error: string | null; duration_ms: number; attempted_at: string }[];
}

/**
 * The subscription's ledger, newest first, with each row's attempts. Rows and attempts come from
 * one statement, so one snapshot: a worker recording an attempt meanwhile is seen whole or not at
 * all (a row's attempt log never runs ahead of its status and error).
 */
export async function listDeliveries(db: SqlRunner, subscriptionId: number, page: { limit: number; offset: number }): Promise<{ rows: DeliveryLogRow[]; count: number }> {
  const count = (await db.one<{ n: number }>('SELECT count(*) AS n FROM webhook_deliveries WHERE subscription_id = @subscriptionId', { subscriptionId }))!.n;
  type Joined = Omit<DeliveryLogRow, 'attempt_log'> & {
    a_attempt: number | null;
    a_outcome: 'delivered' | 'failed' | null;
    a_response_code: number | null;
    a_error: string | null;
    a_duration_ms: number | null;
    a_attempted_at: string | null;
  };
  const joined = await db.many<Joined>(
    `WITH page AS (
       SELECT d.id, e.event_id, e.event_type, e.payload, d.status, d.attempts, d.max_attempts, d.response_code, d.last_error,
              d.next_attempt_at, d.delivered_at, d.created_at, d.updated_at
         FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
        WHERE d.subscription_id = @subscriptionId ORDER BY d.id DESC LIMIT @limit OFFSET @offset)
     SELECT page.*, a.attempt AS a_attempt, a.outcome AS a_outcome, a.response_code AS a_response_code, a.error AS a_error,
            a.duration_ms AS a_duration_ms, a.attempted_at AS a_attempted_at
       FROM page LEFT JOIN webhook_attempts a ON a.delivery_id = page.id
      ORDER BY page.id DESC, a.attempt`,
    { subscriptionId, limit: page.limit, offset: page.offset },
  );
  const rows: DeliveryLogRow[] = [];
  for (const { a_attempt, a_outcome, a_response_code, a_error, a_duration_ms, a_attempted_at, ...delivery } of joined) {
    if (rows.at(-1)?.id !== delivery.id) rows.push({ ...delivery, attempt_log: [] });
    if (a_attempt === null) continue;
    rows.at(-1)!.attempt_log.push({ attempt: a_attempt, outcome: a_outcome!, response_code: a_response_code, error: a_error, duration_ms: a_duration_ms!, attempted_at: a_attempted_at! });
  }
  return { rows, count };
}

/** One ledger row of the subscription, or undefined. */
export async function findDelivery(db: SqlRunner, subscriptionId: number, deliveryId: number): Promise<{ id: number; status: DeliveryStatus } | undefined> {
  return db.one<{ id: number; status: DeliveryStatus }>('SELECT id, status FROM webhook_deliveries WHERE id = @deliveryId AND subscription_id = @subscriptionId', {
    deliveryId,
    subscriptionId,
  });
}

/**
 * When the earliest waiting delivery of an enabled subscription can be claimed, if any: its due
 * time, or the end of the lease another worker holds on it.
 */
export async function nextDueAt(db: SqlRunner, now: string): Promise<string | undefined> {
  const row = await db.one<{ due: string | null }>(
    `SELECT min(CASE WHEN d.lease_until > @now THEN d.lease_until ELSE d.next_attempt_at END) AS due
       FROM webhook_deliveries d JOIN webhook_subscriptions s ON s.id = d.subscription_id
      WHERE d.status = 'pending' AND s.active = 1`,
    { now },
  );
  return row?.due ?? undefined;
}

/**
 * Ledger retention: deletes up to `limit` finished deliveries (delivered, failed, skipped) last
 * touched before `before`, with their attempts, then the outbox events no delivery refers to any
 * more. Pending deliveries are never pruned. Returns how many deliveries went. Run inside a
 * transaction (the worker's).
 */
export async function pruneLedger(db: SqlRunner, input: { before: string; limit: number }): Promise<number> {
  const deleted = await db.run(
    `DELETE FROM webhook_deliveries WHERE id IN (
       SELECT id FROM webhook_deliveries WHERE status <> 'pending' AND updated_at < @before LIMIT @limit)`,
    { before: input.before, limit: input.limit },
  );
  await db.run(
    `DELETE FROM webhook_events
      WHERE created_at < @before AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = webhook_events.id)`,
    { before: input.before },
  );
  return deleted;
}
