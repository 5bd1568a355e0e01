import { describe, expect, it } from 'vitest';
import { subscriptionNotice } from './subscription.js';

describe('subscription notice for admins', () => {
  it('says what each subscription state means for devices', () => {
    expect(subscriptionNotice({ active: true, status: 'active', currentPeriodEnd: null })).toMatchObject({ tone: 'ok', message: 'Subscription active.' });
    expect(subscriptionNotice({ active: true, status: 'trialing', currentPeriodEnd: '2026-12-01T00:00:00Z' })).toMatchObject({
      tone: 'ok',
      message: 'Trial until 2026-12-01.',
    });
    expect(subscriptionNotice({ active: true, status: 'past_due', currentPeriodEnd: null }).tone).toBe('warning');
    expect(subscriptionNotice({ active: false, status: 'canceled', currentPeriodEnd: null })).toMatchObject({
      tone: 'danger',
      message: 'Subscription is canceled: devices are denied at unlock and check-in.',
    });
    expect(subscriptionNotice({ active: false, status: 'active', currentPeriodEnd: '2026-01-01T00:00:00Z' }).message).toMatch(/period has ended/);
  });
});
