import type { SubscriptionStatus } from '../../adapters/db/accounts.js';

/** What an admin should be told about the account's subscription (banner and settings line). */
export interface SubscriptionNotice {
  active: boolean;
  status: SubscriptionStatus;
  current_period_end: string | null;
  tone: 'ok' | 'warning' | 'danger';
  message: string;
}

const day = (iso: string) => iso.slice(0, 10);

/**
 * Account state is derived from the subscription (README "Account state"): trialing, active and
 * past_due are active until the paid period ends; canceled and unpaid are not. The message says
 * what that means for devices, which is what an admin has to act on.
 */
export function subscriptionNotice(input: {
  active: boolean;
  status: SubscriptionStatus;
  currentPeriodEnd: string | null;
}): SubscriptionNotice {
  const base = { active: input.active, status: input.status, current_period_end: input.currentPeriodEnd };
  const until = input.currentPeriodEnd ? ` until ${day(input.currentPeriodEnd)}` : '';
  if (!input.active) {
    const why = input.status === 'canceled' || input.status === 'unpaid' ? `is ${input.status}` : 'period has ended';
    return { ...base, tone: 'danger', message: `Subscription ${why}: devices are denied at unlock and check-in.` };
  }
  if (input.status === 'past_due') {
    return { ...base, tone: 'warning', message: `Payment past due: devices keep working during the grace period${until}.` };
  }
  if (input.status === 'trialing') return { ...base, tone: 'ok', message: `Trial${until}.` };
  return { ...base, tone: 'ok', message: input.currentPeriodEnd ? `Subscription active, renews ${day(input.currentPeriodEnd)}.` : 'Subscription active.' };
}
