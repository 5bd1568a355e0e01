import { newId } from '@erasure/shared';
import { DEVICE_EVENT_TYPES } from '../../../domain/device/events.js';

/**
 * What a sandbox subscription may name: the spec's six, and `drive_stalled` (issue 32, beyond the
 * spec), which the sandbox's floor reports raise as the cloud's do.
 */
export const SANDBOX_EVENT_TYPES = [...DEVICE_EVENT_TYPES, 'drive_stalled'] as const;
export type SandboxEventType = (typeof SANDBOX_EVENT_TYPES)[number];
import type { WebhookAuthType } from '../../../domain/webhooks/types.js';
import type { WebhookTargetColumns } from '../webhook-subscriptions.js';
import type { SqlDatabase, SqlRunner } from '../../sql/database.js';

export type { WebhookAuthType };

/** A stored subscription, credentials included (never listed as such: see {@link toPublicWebhook}). */
export interface SandboxWebhook extends WebhookTargetColumns {
  id: number;
  prefix_id: string;
  account_id: string;
  numeric_account_id: number;
  event_type: SandboxEventType;
  active: boolean;
  failure_count: number;
  auto_disabled_at: string | null;
  created_at: string;
}

/** Spec 2 "Webhook subscription (sandbox)"; credentials stay server-side. */
export function toPublicWebhook(w: SandboxWebhook) {
  return {
    prefix_id: w.prefix_id,
    account_id: w.account_id,
    event_type: w.event_type,
    url: w.url,
    signing_secret: w.signing_secret,
    auth_type: w.auth_type,
    active: w.active,
    failure_count: w.failure_count,
    auto_disabled_at: w.auto_disabled_at,
    created_at: w.created_at,
  };
}

const SELECT = `SELECT w.id, w.prefix_id, a.public_id AS account_id, w.account_id AS numeric_account_id, w.event_type,
       w.url, w.signing_secret, w.auth_type, w.auth_token, w.auth_username, w.auth_password, w.active,
       w.failure_count, w.auto_disabled_at, w.created_at
  FROM sandbox_webhooks w JOIN accounts a ON a.id = w.account_id`;
type Raw = Omit<SandboxWebhook, 'active'> & { active: number };
const toRow = (raw: Raw): SandboxWebhook => ({ ...raw, active: raw.active === 1 });

export async function listSandboxWebhooks(db: SqlRunner): Promise<SandboxWebhook[]> {
  return (await db.many<Raw>(`${SELECT} ORDER BY w.created_at DESC, w.id DESC`)).map(toRow);
}

export async function findSandboxWebhook(db: SqlRunner, prefixId: string): Promise<SandboxWebhook | undefined> {
  const raw = await db.one<Raw>(`${SELECT} WHERE w.prefix_id = @prefix_id`, { prefix_id: prefixId });
  return raw && toRow(raw);
}

/** The active subscriptions an event fans out to. */
export async function activeSubscriptions(db: SqlRunner, accountId: number, eventType: SandboxEventType): Promise<SandboxWebhook[]> {
  const rows = await db.many<Raw>(`${SELECT} WHERE w.account_id = @account_id AND w.event_type = @event_type AND w.active = 1 ORDER BY w.id`, {
    account_id: accountId,
    event_type: eventType,
  });
  return rows.map(toRow);
}

/** Stores a subscription and reads it back; runs inside the caller's transaction. */
export async function insertSandboxWebhook(
  db: SqlRunner,
  input: {
    accountId: number;
    eventType: SandboxEventType;
    url: string;
    signingSecret: string;
    auth: { type: WebhookAuthType; token?: string | undefined; username?: string | undefined; password?: string | undefined };
    now: string;
  },
): Promise<SandboxWebhook> {
  const prefixId = newId('whk');
  await db.run(
    `INSERT INTO sandbox_webhooks (prefix_id, account_id, event_type, url, signing_secret, auth_type, auth_token,
                                   auth_username, auth_password, created_at, updated_at)
     VALUES (@prefix_id, @account_id, @event_type, @url, @signing_secret, @auth_type, @auth_token,
             @auth_username, @auth_password, @now, @now)`,
    {
      prefix_id: prefixId,
      account_id: input.accountId,
      event_type: input.eventType,
      url: input.url,
      signing_secret: input.signingSecret,
      auth_type: input.auth.type,
      auth_token: input.auth.token ?? null,
      auth_username: input.auth.username ?? null,
      auth_password: input.auth.password ?? null,
      now: input.now,
    },
  );
  return (await findSandboxWebhook(db, prefixId))!;
}

/**
 * Applies `PATCH /sandbox/webhooks/:id`. Setting `active` true also resets the failure budget
 * (spec 3: `failure_count` 0, `auto_disabled_at` null), whether or not it had been auto-disabled.
 * The update and the read back share one transaction, so the answer is the row as patched.
 */
export async function updateSandboxWebhook(
  db: SqlDatabase,
  prefixId: string,
  patch: { active?: boolean; url?: string; event_type?: SandboxEventType },
  now: string,
): Promise<SandboxWebhook | undefined> {
  return db.transaction(async (tx) => {
    const row = await tx.one<{ id: number }>(
      `UPDATE sandbox_webhooks SET
         url = COALESCE(@url, url),
         event_type = COALESCE(@event_type, event_type),
         active = COALESCE(@active, active),
         failure_count = CASE WHEN @active = 1 THEN 0 ELSE failure_count END,
         auto_disabled_at = CASE WHEN @active = 1 THEN NULL ELSE auto_disabled_at END,
         updated_at = @now
       WHERE prefix_id = @prefix_id RETURNING id`,
      {
        prefix_id: prefixId,
        url: patch.url ?? null,
        event_type: patch.event_type ?? null,
        active: patch.active === undefined ? null : Number(patch.active),
        now,
      },
    );
    return row ? findSandboxWebhook(tx, prefixId) : undefined;
  });
}

/** Deletes the subscription; its delivery rows go with it (ON DELETE CASCADE). */
export async function deleteSandboxWebhook(db: SqlRunner, prefixId: string): Promise<boolean> {
  return (await db.run('DELETE FROM sandbox_webhooks WHERE prefix_id = @prefix_id', { prefix_id: prefixId })) === 1;
}
