import { DEVICE_EVENT_TYPES, type DeviceEventType } from '../device/events.js';

/**
 * The six event types of spec section 6 (owned by the device domain's event port), plus two
 * beyond the spec: `validation_rejected` (issue 29), a drive picked for validation failed it, and
 * `drive_stalled` (issue 32), a drive on the floor made no byte progress for the account's stall
 * time. The sandbox offers the spec's six only.
 */
export const WEBHOOK_EVENT_TYPES = [...DEVICE_EVENT_TYPES, 'validation_rejected', 'drive_stalled'] as const;
export type WebhookEventType = DeviceEventType | 'validation_rejected' | 'drive_stalled';

/** How a delivery authenticates to the receiver, besides the signature (spec 5.6). */
export const WEBHOOK_AUTH_TYPES = ['none', 'bearer', 'basic'] as const;
export type WebhookAuthType = (typeof WEBHOOK_AUTH_TYPES)[number];

/** Ledger row states (spec 2) plus `skipped`: fired while the subscription was disabled. */
export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'skipped';

/** A subscription's credentials as the sender needs them. */
export type WebhookAuth =
  | { type: 'none' }
  | { type: 'bearer'; token: string }
  | { type: 'basic'; username: string; password: string };

export const isEventType = (value: unknown): value is WebhookEventType =>
  typeof value === 'string' && (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
