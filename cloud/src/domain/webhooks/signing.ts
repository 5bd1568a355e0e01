import { hmacSignature, newUuid } from '@erasure/shared';
import type { WebhookAuth, WebhookEventType } from './types.js';

/** Delivery headers of spec 6, lower-cased as HTTP/1.1 and undici send them. */
export const WEBHOOK_HEADERS = {
  timestamp: 'x-erase-engine-timestamp',
  signature: 'x-erase-engine-signature',
  event: 'x-erase-engine-event',
} as const;

/** Receivers reject timestamps further than this from their clock (spec 8). */
export const RECEIVER_SKEW_SECONDS = 300;

/** Basic credentials as the Authorization header carries them. */
const basic = (username: string, password: string) => `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;

/**
 * The headers of one signed delivery (spec 6): Content-Type, the Unix-seconds timestamp,
 * `sha256=` + hex HMAC-SHA256 of `<timestamp>.<raw body>` keyed with the signing secret, the
 * event type, and Authorization for bearer/basic subscriptions. The body must be sent byte for
 * byte as signed. During a secret's rollover window the previous secret signs too, and the
 * header carries both, space-separated, the new one first (as Standard Webhooks does): a
 * receiver accepts the delivery when any of them matches its secret. Pure: the sandbox calls it
 * with its own clock.
 */
export function signedDeliveryHeaders(input: {
  secret: string;
  /** The secret before a rotation, while its rollover window lasts. */
  previousSecret?: string | null | undefined;
  eventType: WebhookEventType;
  body: string;
  auth: WebhookAuth;
  now: Date;
}): Record<string, string> {
  const timestamp = String(Math.floor(input.now.getTime() / 1000));
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    [WEBHOOK_HEADERS.timestamp]: timestamp,
    [WEBHOOK_HEADERS.signature]: [input.secret, ...(input.previousSecret ? [input.previousSecret] : [])]
      .map((secret) => hmacSignature(secret, timestamp, input.body))
      .join(' '),
    [WEBHOOK_HEADERS.event]: input.eventType,
  };
  if (input.auth.type === 'bearer') headers.authorization = `Bearer ${input.auth.token}`;
  if (input.auth.type === 'basic') headers.authorization = basic(input.auth.username, input.auth.password);
  return headers;
}

/** The test ping's body (spec 4.6): signed like an event, never written to the ledger. */
export function testPingBody(eventType: WebhookEventType, now: Date): string {
  return JSON.stringify({ event_id: newUuid(), event_type: eventType, test: true, created_at: now.toISOString() });
}
