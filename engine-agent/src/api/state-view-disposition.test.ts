import { describe, expect, it } from 'vitest';
import { notErasedJob, notErasedOutcome } from '../session/not-erased.js';
import { resultView } from './state-view.js';

const at = '2026-11-28T12:00:00Z';
const report = (disposition: 'review' | 'destroy') => ({
  outcome: notErasedOutcome(notErasedJob({ device: '/dev/sdc', serial: 'S1', reason: 'locked at level maximum', disposition }), at),
  jobId: 'job-1',
  delivered: true,
});

describe('a not-erased drive on the results screen', () => {
  it('carries the disposition its wipe result reports, so the kiosk can say "set it aside for destruction"', () => {
    expect(resultView(report('destroy'))).toMatchObject({ erased: false, refused: true, disposition: 'destroy' });
    expect(resultView(report('review'))).toMatchObject({ disposition: 'review' });
  });
});
