import type { SubscriptionRow } from '../../adapters/db/webhook-subscriptions.js';
import { shownAttemptError } from './failure-words.js';
import { healthOf } from './manage.js';
import { eventTypesOf } from './subscriptions.js';

/** A subscription as the page shows it: health and last error, never secrets or credentials. */
export const webhookView = (row: SubscriptionRow) => ({
  id: row.public_id,
  account_id: row.account_public_id,
  event_type: row.event_type,
  /** Every event the subscription takes, `event_type` first (issue 28, item 16). */
  event_types: eventTypesOf(row),
  url: row.url,
  auth_type: row.auth_type,
  basic_username: row.auth_type === 'basic' ? row.auth_username : null,
  active: row.active,
  health: healthOf(row),
  failure_count: row.failure_count,
  auto_disabled_at: row.auto_disabled_at,
  disabled_at: row.disabled_at,
  last_error: shownAttemptError(row.last_error),
  last_error_at: row.last_error_at,
  last_success_at: row.last_success_at,
  /** While set and in the future, the secret before the last rotation signs too. */
  previous_secret_expires_at: row.previous_secret_expires_at,
  pending_deliveries: row.pending_count,
  failed_deliveries: row.failed_count,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

