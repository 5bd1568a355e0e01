import type { WebhookEventStore } from '../../domain/webhooks/events.js';
import type { WebhookStore } from '../../domain/webhooks/manage.js';
import { findDelivery, redeliver } from './webhook-deliveries.js';
import { hasSubscriptions, insertEventWithDeliveries, nextRevision, readAssetFacts, readCertificateFacts, readWipeFacts } from './webhook-events.js';
import {
  authOf,
  countSubscriptions,
  createSubscription,
  deleteSubscription,
  disableSubscription,
  enableSubscription,
  findSubscription,
  lockSubscriptionsOf,
  rotateSubscriptionSecret,
  updateSubscription,
} from './webhook-subscriptions.js';

/** The SQLite subscriptions and ledger behind webhook management. */
export const webhookStore: WebhookStore = {
  authOf,
  countSubscriptions,
  createSubscription,
  deleteSubscription,
  disableSubscription,
  enableSubscription,
  findSubscription,
  lockSubscriptionsOf,
  rotateSubscriptionSecret,
  updateSubscription,
  findDelivery,
  redeliver,
};

/** The SQLite outbox behind the webhook events writer. */
export const webhookEventStore: WebhookEventStore = {
  hasSubscriptions,
  insertEventWithDeliveries,
  nextRevision,
  readAssetFacts,
  readCertificateFacts,
  readWipeFacts,
};
