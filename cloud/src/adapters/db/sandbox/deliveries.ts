import { prepared, type ReadonlyDb, type WritableDb } from '../open.js';

/** Newest rows only: the ledger and the sink are viewers, not archives (spec 8). */
export const SANDBOX_LISTING_LIMIT = 100;

/** Inserts the `pending` ledger row that precedes the single attempt; returns its id. */
export function insertPendingDelivery(
  db: WritableDb,
  input: { webhookId: number; accountId: number; eventId: string; eventType: string; payload: string; now: string },
): number {
  return (
    prepared(
      db,
      `INSERT INTO sandbox_deliveries (webhook_id, account_id, event_id, event_type, payload, status, created_at)
       VALUES (?, ?, ?, ?, ?, 'pending', ?) RETURNING id`,
    ).get(input.webhookId, input.accountId, input.eventId, input.eventType, input.payload, input.now) as { id: number }
  ).id;
}

/** A pending delivery with what its attempt needs; undefined once it is settled or gone. */
export function findPendingDelivery(db: ReadonlyDb, deliveryId: number) {
  return prepared(
    db,
    `SELECT d.id, d.event_type, d.payload, w.id AS webhook_id, w.active, w.prefix_id, w.url, w.signing_secret, w.auth_type,
            w.auth_token, w.auth_username, w.auth_password
       FROM sandbox_deliveries d JOIN sandbox_webhooks w ON w.id = d.webhook_id
      WHERE d.id = ? AND d.status = 'pending'`,
  ).get(deliveryId) as
    | {
        id: number;
        event_type: string;
        payload: string;
        webhook_id: number;
        /** 1 while the subscription is enabled: read right before the attempt. */
        active: number;
        prefix_id: string;
        url: string;
        signing_secret: string;
        auth_type: 'none' | 'bearer' | 'basic';
        auth_token: string | null;
        auth_username: string | null;
        auth_password: string | null;
      }
    | undefined;
}

/**
 * Settles the one attempt (spec 3): delivered resets the subscription's `failure_count`; failed
 * increments it and, at `autoDisableAfter` consecutive failures, disables the subscription. One transaction.
 */
export function settleDelivery(
  db: WritableDb,
  input: {
    deliveryId: number;
    webhookId: number;
    delivered: boolean;
    responseCode: number | null;
    error: string | null;
    autoDisableAfter: number;
    now: string;
  },
): void {
  db.transaction(() => {
    prepared(
      db,
      `UPDATE sandbox_deliveries SET status = ?, attempts = attempts + 1, response_code = ?, last_error = ?,
              delivered_at = ? WHERE id = ?`,
    ).run(input.delivered ? 'delivered' : 'failed', input.responseCode, input.error, input.delivered ? input.now : null, input.deliveryId);
    if (input.delivered) {
      prepared(db, 'UPDATE sandbox_webhooks SET failure_count = 0, updated_at = ? WHERE id = ?').run(input.now, input.webhookId);
      return;
    }
    prepared(
      db,
      `UPDATE sandbox_webhooks SET failure_count = failure_count + 1,
              active = CASE WHEN failure_count + 1 >= @limit THEN 0 ELSE active END,
              auto_disabled_at = CASE WHEN failure_count + 1 >= @limit AND active = 1 THEN @now ELSE auto_disabled_at END,
              updated_at = @now
        WHERE id = @id`,
    ).run({ id: input.webhookId, limit: input.autoDisableAfter, now: input.now });
  }).immediate();
}

/**
 * Settles a delivery whose subscription was disabled before its turn came: `failed` with the
 * reason, no attempt made and nothing counted against the subscription (spec 3: no retry).
 */
export function abandonDelivery(db: WritableDb, input: { deliveryId: number; error: string }): void {
  prepared(db, `UPDATE sandbox_deliveries SET status = 'failed', last_error = ? WHERE id = ? AND status = 'pending'`).run(input.error, input.deliveryId);
}

/** Spec 2 "Delivery ledger row", newest first. */
export function listSandboxDeliveries(db: ReadonlyDb) {
  const rows = prepared(
    db,
    `SELECT a.public_id AS account_id, d.event_id, d.event_type, d.payload, d.status, d.attempts, d.response_code,
            d.last_error, d.delivered_at, d.created_at, w.prefix_id AS webhook_prefix_id, w.url AS webhook_url
       FROM sandbox_deliveries d JOIN sandbox_webhooks w ON w.id = d.webhook_id JOIN accounts a ON a.id = d.account_id
      ORDER BY d.id DESC LIMIT ${SANDBOX_LISTING_LIMIT}`,
  ).all() as (Record<string, unknown> & { payload: string })[];
  return rows.map((r) => ({ ...r, payload: JSON.parse(r.payload) as unknown }));
}

export function insertSinkCapture(
  db: WritableDb,
  input: { webhookPrefixId: string; eventType: string; headers: Record<string, string>; body: string; now: string },
): void {
  prepared(
    db,
    `INSERT INTO sandbox_sink_captures (webhook_prefix_id, event_type, headers, body, received_at) VALUES (?, ?, ?, ?, ?)`,
  ).run(input.webhookPrefixId, input.eventType, JSON.stringify(input.headers), input.body, input.now);
}

/** Newest captures with the current signing secret of their subscription (null once it is deleted). */
export function listSinkCaptures(db: ReadonlyDb) {
  return prepared(
    db,
    `SELECT c.webhook_prefix_id, c.event_type, c.headers, c.body, c.received_at, w.signing_secret
       FROM sandbox_sink_captures c LEFT JOIN sandbox_webhooks w ON w.prefix_id = c.webhook_prefix_id
      ORDER BY c.id DESC LIMIT ${SANDBOX_LISTING_LIMIT}`,
  ).all() as { webhook_prefix_id: string; event_type: string; headers: string; body: string; received_at: string; signing_secret: string | null }[];
}
