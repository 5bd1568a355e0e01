import { describeOutboundFailure } from './failure-words.js';
import type { OutboundFailure } from './ssrf.js';
/**
 * How many attempts a delivery gets, how long to wait between them and when a subscription is
 * auto-disabled. Production and the sandbox differ only here (spec 6 "Delivery policy").
 */
export interface DeliveryPolicy {
  /** Attempts per delivery round (a redelivery or reconciliation starts a new round). */
  maxAttempts: number;
  /** Wait after failed attempt `attempt` (1-based) before the next one. */
  retryDelayMs(attempt: number): number;
  /** Consecutive failed attempts that auto-disable a subscription. */
  autoDisableAfter: number;
  /** An attempt counts as delivered only with a 2xx within this time. */
  timeoutMs: number;
}

/** Spec 8: 10 s timeout, any 2xx. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** Spec 3: 5 consecutive failures auto-disable. */
export const AUTO_DISABLE_AFTER = 5;
export const PRODUCTION_MAX_ATTEMPTS = 8;

/**
 * Default WEBHOOK_RETRY_BASE_MS. The waits are base·n⁴ for n = 1…7 (Σn⁴ = 4676), so with
 * 1155 ms the 8 attempts span 90 minutes on average: 1.2 s, 18 s, 94 s, 4.9 min, 12 min,
 * 25 min, 46 min. A quartic curve retries a blip almost at once yet still waits out an outage.
 */
export const DEFAULT_RETRY_BASE_MS = 1155;

/**
 * `base · n⁴ · (0.9 … 1.1)`: polynomial backoff with ±10 % jitter, so deliveries that failed
 * together (one receiver outage) do not all retry in the same instant.
 */
export function polynomialDelayMs(attempt: number, baseMs: number, random: () => number = Math.random): number {
  const n = Math.max(1, attempt);
  return Math.round(baseMs * n ** 4 * (0.9 + 0.2 * random()));
}

/** The cloud's policy: up to 8 attempts over about 90 minutes (scaled by `baseMs`). */
export function productionPolicy(baseMs: number = DEFAULT_RETRY_BASE_MS, random?: () => number): DeliveryPolicy {
  return {
    maxAttempts: PRODUCTION_MAX_ATTEMPTS,
    retryDelayMs: (attempt) => polynomialDelayMs(attempt, baseMs, random),
    autoDisableAfter: AUTO_DISABLE_AFTER,
    timeoutMs: DELIVERY_TIMEOUT_MS,
  };
}

/** The sandbox's policy (spec 6): one immediate attempt, no retry, same auto-disable rule. */
export const SINGLE_ATTEMPT_POLICY: DeliveryPolicy = Object.freeze({
  maxAttempts: 1,
  retryDelayMs: () => 0,
  autoDisableAfter: AUTO_DISABLE_AFTER,
  timeoutMs: DELIVERY_TIMEOUT_MS,
});

/** What an attempt came back with; transport failures are values, not throws. */
export type AttemptOutcome =
  | { ok: true; status: number; durationMs: number }
  | { ok: false; status?: number; error: string; failure?: OutboundFailure; durationMs: number };

/** Any 2xx counts (spec 6); a 3xx is never followed and is a failure like any other status. */
export const isDelivered = (outcome: AttemptOutcome): boolean => outcome.ok && outcome.status >= 200 && outcome.status <= 299;

/** The delivery's next state after attempt number `attempt` of the current round. */
export type NextStep = { status: 'delivered' } | { status: 'retry'; delayMs: number } | { status: 'failed' };

/** Pure transition: delivered on 2xx, else retry while the round has attempts left, else failed. */
export function nextStep(policy: DeliveryPolicy, attemptInRound: number, outcome: AttemptOutcome): NextStep {
  if (isDelivered(outcome)) return { status: 'delivered' };
  if (attemptInRound >= policy.maxAttempts) return { status: 'failed' };
  return { status: 'retry', delayMs: policy.retryDelayMs(attemptInRound) };
}

/**
 * What the account sees of a failed attempt (delivery log, health column, test ping): the
 * receiver's `HTTP <status>`, or the transport failure's category. The detail in
 * `outcome.error` goes to the server log only.
 */
export function attemptError(outcome: AttemptOutcome): string | null {
  if (isDelivered(outcome)) return null;
  if (!outcome.ok) return describeOutboundFailure(outcome.failure);
  return `HTTP ${outcome.status}`;
}
