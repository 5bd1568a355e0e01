import type { SqlDatabase, SqlRunner } from '../../sql/database.js';

/** Newest rows only: the ledger and the sink are viewers, not archives (spec 8). */
export const SANDBOX_LISTING_LIMIT = 100;

/** Inserts the `pending` ledger row that precedes the single attempt; returns its id. */
export async function insertPendingDelivery(
  db: SqlRunner,
  input: { webhookId: number; accountId: number; eventId: string; eventType: string; payload: string; now: string },
): Promise<number> {
  const row = await db.one<{ id: number }>(
    `INSERT INTO sandbox_deliveries (webhook_id, account_id, event_id, event_type, payload, status, created_at)
     VALUES (@webhook_id, @account_id, @event_id, @event_type, @payload, 'pending', @now) RETURNING id`,
    {
      webhook_id: input.webhookId,
      account_id: input.accountId,
      event_id: input.eventId,
      event_type: input.eventType,
      payload: input.payload,
      now: input.now,
    },
  );
  return row!.id;
}

/** A pending delivery with what its attempt needs; undefined once it is settled or gone. */
export async function findPendingDelivery(db: SqlRunner, deliveryId: number) {
  return db.one<{
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
  }>(
    `SELECT d.id, d.event_type, d.payload, w.id AS webhook_id, w.active, w.prefix_id, w.url, w.signing_secret, w.auth_type,
            w.auth_token, w.auth_username, w.auth_password
       FROM sandbox_deliveries d JOIN sandbox_webhooks w ON w.id = d.webhook_id
      WHERE d.id = @id AND d.status = 'pending'`,
    { id: deliveryId },
  );
}

/**
 * Settles the one attempt (spec 3): delivered resets the subscription's `failure_count`; failed
 * increments it and, at `autoDisableAfter` consecutive failures, disables the subscription. One transaction.
 */
export async function settleDelivery(
  db: SqlDatabase,
  input: {
    deliveryId: number;
    webhookId: number;
    delivered: boolean;
    responseCode: number | null;
    error: string | null;
    autoDisableAfter: number;
    now: string;
  },
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.run(
      `UPDATE sandbox_deliveries SET status = @status, attempts = attempts + 1, response_code = @response_code, last_error = @error,
              delivered_at = @delivered_at WHERE id = @id`,
      {
        status: input.delivered ? 'delivered' : 'failed',
        response_code: input.responseCode,
        error: input.error,
        delivered_at: input.delivered ? input.now : null,
        id: input.deliveryId,
      },
    );
    if (input.delivered) {
      await tx.run('UPDATE sandbox_webhooks SET failure_count = 0, updated_at = @now WHERE id = @id', { now: input.now, id: input.webhookId });
      return;
    }
    await tx.run(
      `UPDATE sandbox_webhooks SET failure_count = failure_count + 1,
              active = CASE WHEN failure_count + 1 >= @limit THEN 0 ELSE active END,
              auto_disabled_at = CASE WHEN failure_count + 1 >= @limit AND active = 1 THEN @now ELSE auto_disabled_at END,
              updated_at = @now
        WHERE id = @id`,
      { id: input.webhookId, limit: input.autoDisableAfter, now: input.now },
    );
  });
}

/**
 * Settles a delivery whose subscription was disabled before its turn came: `failed` with the
 * reason, no attempt made and nothing counted against the subscription (spec 3: no retry).
 */
export async function abandonDelivery(db: SqlRunner, input: { deliveryId: number; error: string }): Promise<void> {
  await db.run(`UPDATE sandbox_deliveries SET status = 'failed', last_error = @error WHERE id = @id AND status = 'pending'`, {
    error: input.error,
    id: input.deliveryId,
  });
}

/** Spec 2 "Delivery ledger row", newest first. */
export async function listSandboxDeliveries(db: SqlRunner) {
  const rows = await db.many<Record<string, unknown> & { payload: string }>(
    `SELECT a.public_id AS account_id, d.event_id, d.event_type, d.payload, d.status, d.attempts, d.response_code,
            d.last_error, d.delivered_at, d.created_at, w.prefix_id AS webhook_prefix_id, w.url AS webhook_url
       FROM sandbox_deliveries d JOIN sandbox_webhooks w ON w.id = d.webhook_id JOIN accounts a ON a.id = d.account_id
      ORDER BY d.id DESC LIMIT ${SANDBOX_LISTING_LIMIT}`,
  );
  return rows.map((r) => ({ ...r, payload: JSON.parse(r.payload) as unknown }));
}

export async function insertSinkCapture(
  db: SqlRunner,
  input: { webhookPrefixId: string; eventType: string; headers: Record<string, string>; body: string; now: string },
): Promise<void> {
  await db.run(
    `INSERT INTO sandbox_sink_captures (webhook_prefix_id, event_type, headers, body, received_at)
     VALUES (@webhook_prefix_id, @event_type, @headers, @body, @now)`,
    { webhook_prefix_id: input.webhookPrefixId, event_type: input.eventType, headers: JSON.stringify(input.headers), body: input.body, now: input.now },
  );
}

/** Newest captures with the current signing secret of their subscription (null once it is deleted). */
export async function listSinkCaptures(db: SqlRunner) {
  return db.many<{ webhook_prefix_id: string; event_type: string; headers: string; body: string; received_at: string; signing_secret: string | null }>(
    `SELECT c.webhook_prefix_id, c.event_type, c.headers, c.body, c.received_at, w.signing_secret
       FROM sandbox_sink_captures c LEFT JOIN sandbox_webhooks w ON w.prefix_id = c.webhook_prefix_id
      ORDER BY c.id DESC LIMIT ${SANDBOX_LISTING_LIMIT}`,
  );
}
