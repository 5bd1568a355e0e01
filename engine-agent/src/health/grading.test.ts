import { DEFAULT_ERASURE_POLICY, DEFAULT_HEALTH_GRADING, DEFAULT_HEALTH_RULES, healthForWire, type WireHealthRule } from '@erasure/shared';
import { describe, expect, it } from 'vitest';
import { headlessPolicy } from '../image/headless-policy.js';
import { acceptPolicy } from '../session/erasure-policy.js';
import { eraseWithHealth } from './erase-health.js';
import type { EraseOutcome } from '../erase/erase-drive.js';

// Issue 30 item 6: the agent grades with the account's rule table sent with the erasure policy,
// with the documented default only when the account set none, and never with a garbled table.
const granted = { erasure_policy: DEFAULT_ERASURE_POLICY, source: 'account' as const };
const erased = async () => ({ device: '/dev/sdz', ok: true, refused: false }) as unknown as EraseOutcome;
const worn = async () => ({ ok: true as const, health: { protocol: 'ATA' as const, passed: true, powerOnHours: 50_000, reallocatedSectors: 0, pendingSectors: 0 } });
/** The default table with the power-on-hours rules moved: C from 60,000 h, B from 30,000 h. */
const lenient: WireHealthRule[] = DEFAULT_HEALTH_GRADING.rules.map((r) => (r.metric === 'power_on_hours' ? { ...r, at_least: r.grade === 'C' ? 60_000 : 30_000 } : r));

describe('the account’s health grade table on the agent', () => {
  it('without a table from the cloud, the documented default table grades, and no self-test runs', () => {
    expect(acceptPolicy(granted)).toMatchObject({ ok: true, grading: { rules: DEFAULT_HEALTH_RULES, selfTest: false } });
  });

  it('grades with the account’s thresholds, and the reason names the rule that fired with its threshold', async () => {
    const state = acceptPolicy({ ...granted, health_grading: { rules: lenient, smart_self_test: true } });
    if (!state.ok) throw new Error(state.reason);
    expect(state.grading).toMatchObject({ selfTest: true });
    expect(state.grading).not.toHaveProperty('refused');
    const outcome = await eraseWithHealth(erased, worn, state.grading);
    expect(outcome.health?.verdict.grade).toBe('B');
    expect(outcome.health?.verdict.reasons.map((r) => r.text)).toEqual(['it has been powered on for 50,000 hours (about 5.7 years) (rule: power-on hours ≥ 30,000 gives B)']);
    // The default table calls the same drive C: the account's table is the one that graded.
    expect((await eraseWithHealth(erased, worn)).health?.verdict.grade).toBe('C');
  });

  it('reaches a headless run with the policy, as the master passwords do', () => {
    const run = headlessPolicy(acceptPolicy({ ...granted, health_grading: { rules: lenient, smart_self_test: true } }), {});
    expect(run).toMatchObject({ ok: true, grading: { selfTest: true } });
    expect(run.ok && run.grading?.rules.find((r) => r.metric === 'power_on_hours' && r.grade === 'B')).toEqual({ metric: 'power_on_hours', atLeast: 30_000, grade: 'B' });
  });

  it.each([
    ['a worse grade with a lower threshold', lenient.map((r) => (r.metric === 'power_on_hours' && r.grade === 'C' ? { ...r, at_least: 20_000 } : r)), /power-on hours: the C threshold must be higher than the B threshold/],
    ['two rules for one metric and grade', [...lenient, { metric: 'crc_errors', grade: 'B', at_least: 5 } as WireHealthRule], /UDMA CRC errors \(ATA 199\) has two B rules/],
    ['a slow-zone rule given as at_least', [{ metric: 'slowest_region_percent', grade: 'C', at_least: 30 } as WireHealthRule], /give at_most only/],
    ['a flag with a threshold other than 1', [{ metric: 'smart_failed', grade: 'F', at_least: 3 } as WireHealthRule], /from 1 to 1, not 3/],
  ])('a garbled table (%s) is refused: the default table grades, and the first reason says so', async (_what, rules, why) => {
    const state = acceptPolicy({ ...granted, health_grading: { rules, smart_self_test: false } });
    if (!state.ok) throw new Error(state.reason);
    expect(state.grading.refused).toMatch(why);
    expect(state.grading.rules).toBe(DEFAULT_HEALTH_RULES);
    const outcome = await eraseWithHealth(erased, worn, state.grading);
    expect(outcome.ok).toBe(true);
    expect(outcome.health?.verdict.grade).toBe('C');
    const wire = healthForWire(outcome.health!);
    expect(wire.reasons[0]).toMatch(/^graded by the default table: the account's grade table was refused \(/);
    expect(wire.reasons[1]).toMatch(/\(rule: power-on hours ≥ 40,000 gives C\)$/);
  });
});
