import { DEFAULT_ERASURE_POLICY, type ErasurePolicy } from '@erasure/shared';
import { describe, expect, it } from 'vitest';
import { acceptPolicy, methodFor, NO_POLICY_YET } from './erasure-policy.js';

const contract: ErasurePolicy = { default_method: 'dod-5220.22-m-3', verification: { sample: 10 }, allowed_methods: ['dod-5220.22-m-3', 'zeros'] };

describe('the erasure policy on the device (issue 29 item 2)', () => {
  it('without a policy read yet, no drive gets a method: nothing is erased', () => {
    expect(methodFor(NO_POLICY_YET, undefined)).toEqual({ ok: false, reason: 'nothing can be erased: the erasure policy has not been read yet' });
  });

  it('refuses a policy whose default method is not among its allowed methods', () => {
    const state = acceptPolicy({ erasure_policy: { ...contract, allowed_methods: ['zeros'] }, source: 'token' });
    expect(state.ok).toBe(false);
    expect(methodFor(state, undefined).ok).toBe(false);
  });

  it('gives a drive the default method, or the operator’s choice when the policy allows it', () => {
    const state = acceptPolicy({ erasure_policy: contract, source: 'token' });
    expect(methodFor(state, undefined)).toEqual({ ok: true, method: 'dod-5220.22-m-3' });
    expect(methodFor(state, 'zeros')).toEqual({ ok: true, method: 'zeros' });
  });

  it('refuses a method outside the policy in plain words, naming what is allowed', () => {
    const state = acceptPolicy({ erasure_policy: contract, source: 'token' });
    expect(methodFor(state, 'gutmann')).toEqual({
      ok: false,
      reason: "Gutmann (35 passes) is not allowed by this device token's contract; allowed: DoD 5220.22-M (3 passes), Zeros (1 pass)",
    });
  });

  it('takes the built-in default policy as it is', () => {
    expect(acceptPolicy({ erasure_policy: DEFAULT_ERASURE_POLICY, source: 'default' })).toMatchObject({ ok: true, source: 'default' });
  });
});

