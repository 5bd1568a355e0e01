import { DEFAULT_ERASURE_POLICY, type ErasurePolicy } from '@erasure/shared';
import { describe, expect, it } from 'vitest';
import { acceptPolicy, methodFor, methodRefusedOn, NO_POLICY_YET } from './erasure-policy.js';

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

describe('a method the drive\u2019s plan would not carry out', () => {
  const overwrite = { ok: true, method: 'overwrite', label: 'NIST 800-88 R2 Clear' };
  const firmware = { ok: true, method: 'nvme-sanitize-crypto', label: 'NIST 800-88 R2 Purge' };

  it('is refused rather than certified under its name', () => {
    expect(methodRefusedOn('nist-800-88-clear', overwrite)).toBeUndefined();
    expect(methodRefusedOn('nist-800-88-clear', firmware)).toBe('NIST 800-88 R2 Clear needs an overwrite, and this drive is erased by NIST 800-88 R2 Purge');
    expect(methodRefusedOn('dod-5220.22-m-3', overwrite)).toMatch(/^DoD 5220.22-M \(3 passes\) cannot be carried out by this agent yet/);
  });

  it('leaves NIST Purge, today\u2019s plan, to the drive', () => {
    expect(methodRefusedOn('nist-800-88-purge', overwrite)).toBeUndefined();
    expect(methodRefusedOn('nist-800-88-purge', firmware)).toBeUndefined();
  });
});
