import { describe, expect, it } from 'vitest';
import { availableControls, decideControl } from './controls.js';

describe('device token controls (spec 3)', () => {
  it.each([
    ['admin', 'active', 'suspend', 'suspended'],
    ['admin', 'suspended', 'reinstate', 'active'],
    ['admin', 'revoked', 'reinstate', 'active'],
    ['admin', 'active', 'revoke', 'revoked'],
    ['admin', 'suspended', 'revoke', 'revoked'],
    ['staff', 'active', 'disable', 'disabled'],
    ['staff', 'revoked', 'disable', 'disabled'],
    ['staff', 'disabled', 'lift_disable', 'suspended'],
  ] as const)('%s may move a %s token with %s to %s', (role, from, action, to) => {
    expect(decideControl(role, from, action)).toEqual({ ok: true, from, to });
  });

  it.each([
    ['admin', 'disabled', 'reinstate', 403],
    ['admin', 'disabled', 'suspend', 403],
    ['admin', 'disabled', 'revoke', 403],
    ['admin', 'active', 'disable', 403],
    ['admin', 'disabled', 'lift_disable', 403],
    ['technician', 'active', 'suspend', 403],
    ['staff', 'active', 'suspend', 403],
    ['admin', 'revoked', 'suspend', 409],
    ['admin', 'active', 'reinstate', 409],
    ['staff', 'disabled', 'disable', 409],
    ['staff', 'active', 'lift_disable', 409],
  ] as const)('refuses %s on a %s token doing %s with %i', (role, from, action, status) => {
    expect(decideControl(role, from, action)).toMatchObject({ ok: false, status });
  });

  it('offers each role only the controls it may use', () => {
    expect(availableControls('admin', 'active')).toEqual(['suspend', 'revoke']);
    expect(availableControls('admin', 'disabled')).toEqual([]);
    expect(availableControls('staff', 'suspended')).toEqual(['disable']);
    expect(availableControls('technician', 'active')).toEqual([]);
  });
});
