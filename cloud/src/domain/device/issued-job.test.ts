import { describe, expect, it } from 'vitest';
import { checkinClaimOf, issuedJobIdOf, NOT_ISSUED_REASON, ownUncertifiedReason } from './issued-job.js';

describe('the check-in a wipe result names (spec 4.1 rule 7)', () => {
  it.each([
    ['engine', '8c1f2e4a-0b1c-4d2e-9f00-1234567890ab-0', '8c1f2e4a-0b1c-4d2e-9f00-1234567890ab'],
    ['engine', 'job-12', 'job'],
    ['engine', 'job-9999', 'job'],
    ['engine', 'job', undefined],
    ['engine', 'job-', undefined],
    ['engine', 'job-01', undefined],
    ['engine', 'job-10000', undefined],
    ['engine', '-0', undefined],
    ['hotswap', '8c1f2e4a-0b1c-4d2e-9f00-1234567890ab', '8c1f2e4a-0b1c-4d2e-9f00-1234567890ab'],
    ['hotswap', 'job-0', 'job-0'],
  ] as const)('%s job_id %s comes from check-in %s', (product, jobId, issued) => {
    expect(issuedJobIdOf(product, jobId)).toBe(issued);
  });

  it.each([
    ['engine', 'job-255', 256, { issuedJobId: 'job', notIssuedReason: NOT_ISSUED_REASON }],
    ['engine', 'job-256', 256, { issuedJobId: undefined, notIssuedReason: 'drive -256 is past the cap of 256 drives per machine (MAX_DRIVES_PER_MACHINE)' }],
    ['engine', 'job-1', 1, { issuedJobId: undefined, notIssuedReason: 'drive -1 is past the cap of 1 drives per machine (MAX_DRIVES_PER_MACHINE)' }],
    ['engine', 'job', 256, { issuedJobId: undefined, notIssuedReason: NOT_ISSUED_REASON }],
    ['hotswap', 'job-300', 256, { issuedJobId: 'job-300', notIssuedReason: NOT_ISSUED_REASON }],
  ] as const)('%s job_id %s under a cap of %i drives per machine claims %o', (product, jobId, cap, claim) => {
    expect(checkinClaimOf(product, jobId, cap)).toEqual(claim);
  });

  it('a failed or cancelled wipe, or a rejected validation, names its own reason', () => {
    expect(ownUncertifiedReason({})).toBeNull();
    expect(ownUncertifiedReason({ wipe_status: 'completed', validation: 'approved' })).toBeNull();
    expect(ownUncertifiedReason({ wipe_status: 'failed' })).toBe('wipe_status failed');
    expect(ownUncertifiedReason({ wipe_status: 'cancelled' })).toBe('wipe_status cancelled');
    expect(ownUncertifiedReason({ validation: 'rejected' })).toBe('validation rejected');
  });
});
