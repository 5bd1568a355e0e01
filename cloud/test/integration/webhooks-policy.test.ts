import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RETRY_BASE_MS,
  nextStep,
  polynomialDelayMs,
  productionPolicy,
  SINGLE_ATTEMPT_POLICY,
  type AttemptOutcome,
} from '../../src/domain/webhooks/policy.js';

const failed: AttemptOutcome = { ok: true, status: 500, durationMs: 3 };
const refused: AttemptOutcome = { ok: false, error: 'ECONNREFUSED', durationMs: 1 };
const delivered: AttemptOutcome = { ok: true, status: 202, durationMs: 3 };
const redirect: AttemptOutcome = { ok: true, status: 302, durationMs: 3 };

describe('delivery policy (spec 6, 8)', () => {
  it('spreads 8 attempts over about 90 minutes by default', () => {
    const total = (random: () => number) => {
      const policy = productionPolicy(DEFAULT_RETRY_BASE_MS, random);
      let ms = 0;
      for (let attempt = 1; attempt < policy.maxAttempts; attempt++) ms += policy.retryDelayMs(attempt);
      return ms / 60_000;
    };
    expect(total(() => 0.5)).toBeCloseTo(90, 0);
    expect(total(() => 0)).toBeGreaterThan(80);
    expect(total(() => 0.999)).toBeLessThan(100);
  });

  it('grows polynomially (n⁴) and WEBHOOK_RETRY_BASE_MS scales the whole schedule', () => {
    const mid = () => 0.5;
    expect([1, 2, 3, 7].map((n) => polynomialDelayMs(n, 1000, mid))).toEqual([1000, 16_000, 81_000, 2_401_000]);
    expect(polynomialDelayMs(7, 2, mid)).toBe(4802);
  });

  it('jitters each wait by ±10 %', () => {
    expect(polynomialDelayMs(2, 1000, () => 0)).toBe(14_400);
    expect(polynomialDelayMs(2, 1000, () => 0.999_999)).toBe(17_600);
  });

  it('retries any non-2xx (3xx included, never followed) and transport failures until the round ends', () => {
    const policy = productionPolicy(1000, () => 0.5);
    expect(nextStep(policy, 1, delivered)).toEqual({ status: 'delivered' });
    expect(nextStep(policy, 1, failed)).toEqual({ status: 'retry', delayMs: 1000 });
    expect(nextStep(policy, 2, redirect)).toEqual({ status: 'retry', delayMs: 16_000 });
    expect(nextStep(policy, 7, refused)).toEqual({ status: 'retry', delayMs: 2_401_000 });
    expect(nextStep(policy, 8, failed)).toEqual({ status: 'failed' });
    expect(nextStep(policy, 8, delivered)).toEqual({ status: 'delivered' });
  });

  it('the sandbox policy makes one attempt with no retry and the same auto-disable rule', () => {
    expect(nextStep(SINGLE_ATTEMPT_POLICY, 1, failed)).toEqual({ status: 'failed' });
    expect(nextStep(SINGLE_ATTEMPT_POLICY, 1, delivered)).toEqual({ status: 'delivered' });
    expect(SINGLE_ATTEMPT_POLICY.autoDisableAfter).toBe(productionPolicy().autoDisableAfter);
    expect(SINGLE_ATTEMPT_POLICY.timeoutMs).toBe(10_000);
  });
});
