import { DEVICE_EVENT_TYPES, type DeviceEventType } from '../device/events.js';

/** The six event types of spec section 6: one union, owned by the device domain's event port. */
export const WEBHOOK_EVENT_TYPES = DEVICE_EVENT_TYPES;
export type WebhookEventType = DeviceEventType;

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
