import { describe, expect, it } from 'vitest';
import { NOT_ISSUED_REASON } from '../device/issued-job.js';
import { notIssuedInWords } from './not-issued.js';

describe('"Not issued" says why in plain words', () => {
  it.each([
    [NOT_ISSUED_REASON, 'Its run was not checked in with this device token'],
    ['drive -256 is past the cap of 256 drives per machine (MAX_DRIVES_PER_MACHINE)', 'More drives than one check-in covers (256 per machine)'],
    ['wipe_status failed', 'The erasure failed'],
    ['wipe_status cancelled', 'The erasure was cancelled'],
    ['wipe_status aborted', 'The erasure did not complete'],
    ['validation rejected', 'The device did not approve the erasure\u2019s verification'],
    [null, 'No reason was recorded'],
    ['something new', 'Not certified (see Details)'],
  ])('%s → %s', (stored, words) => {
    expect(notIssuedInWords(stored)).toBe(words);
  });
});
