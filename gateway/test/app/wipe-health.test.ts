import { describe, expect, it } from 'vitest';
import { forwardingGateway } from '../support/forwarding.js';
import { WRITES, wipeResultBody } from '../support/bodies.js';
import { ACCOUNT } from '../support/tokens.js';

// Issue 30 item 6: the health grade rides beside the spec fields of a wipe result; the edge
// checks it against the same bounded schema the cloud does.
const health = {
  grade: 'B',
  reasons: ['it has been powered on for 12,000 hours (about 1.4 years)'],
  smart_before: { protocol: 'ATA', passed: true, power_on_hours: 12_000, reallocated_sectors: 0 },
  smart_after: { protocol: 'ATA', passed: true, power_on_hours: 12_001, reallocated_sectors: 0 },
  region_bytes: 5_120_000_000,
  profile_mbps: [...Array(99).fill(140.5), null],
  io_errors: 0,
  retries: 0,
};
const accepted = WRITES.find((w) => w.path === '/api/wipe_result')?.ok;

describe('POST /api/wipe_result with a health grade', () => {
  const gw = forwardingGateway();

  it('forwards the health object unchanged beside the spec fields', async () => {
    gw.cloud.script(() => ({ status: 201, json: accepted }));
    const json = { ...wipeResultBody, health };
    expect((await gw.sut.call('/api/wipe_result', { token: gw.token, json })).status).toBe(201);
    expect(gw.cloud.seen[0]?.json).toEqual({ ...json, jti: gw.jti, account_id: ACCOUNT });
  });

  it.each([
    ['a grade outside A, B, C and F', { ...health, grade: 'D' }],
    ['more than 128 profile regions', { ...health, profile_mbps: Array(129).fill(1) }],
    ['a negative SMART counter', { ...health, smart_after: { reallocated_sectors: -1 } }],
    ['an unknown health field', { ...health, full_smart_dump: 'x' }],
  ])('answers 400 for %s and forwards nothing', async (_name, bad) => {
    expect((await gw.sut.call('/api/wipe_result', { token: gw.token, json: { ...wipeResultBody, health: bad } })).status).toBe(400);
    expect(gw.cloud.seen).toEqual([]);
  });
});
