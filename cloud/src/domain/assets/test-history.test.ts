import { describe, expect, it } from 'vitest';
import { latestTestResults } from './test-history.js';

describe('latest hardware test results across boots (issue 28, item 14)', () => {
  const first = { record_id: 'CW-1', submitted_at: '2026-11-20T10:00:00.000Z', tests: { keyboard: { status: 'passed' }, display: { status: 'failed', detail: 'dead pixel row' }, wifi_adapter: { status: 'not_started' } } } as const;
  const second = { record_id: 'CW-2', submitted_at: '2026-11-21T09:00:00.000Z', tests: { keyboard: { status: 'not_started' }, wifi_adapter: { status: 'detected', detail: 'Intel AX201' } } } as const;

  it('keeps an earlier boot’s verdict when a later boot did not run the test', () => {
    expect(latestTestResults([second, first])).toEqual({
      keyboard: { status: 'passed', taken_at: first.submitted_at, record_id: 'CW-1' },
      display: { status: 'failed', detail: 'dead pixel row', taken_at: first.submitted_at, record_id: 'CW-1' },
      wifi_adapter: { status: 'detected', detail: 'Intel AX201', taken_at: second.submitted_at, record_id: 'CW-2' },
    });
  });

  it('takes the newer boot’s result when both boots ran the test', () => {
    const third = { record_id: 'CW-3', submitted_at: '2026-11-22T09:00:00.000Z', tests: { display: { status: 'passed' } } } as const;
    expect(latestTestResults([first, third, second]).display).toEqual({ status: 'passed', taken_at: third.submitted_at, record_id: 'CW-3' });
  });

  it('shows a test no boot ran as not started, from the newest boot listing it', () => {
    expect(latestTestResults([first, second]).keyboard?.status).toBe('passed');
    const only = latestTestResults([{ record_id: 'CW-9', submitted_at: '2026-11-23T00:00:00.000Z', tests: { webcam: { status: 'not_started' } } }]);
    expect(only).toEqual({ webcam: { status: 'not_started', taken_at: '2026-11-23T00:00:00.000Z', record_id: 'CW-9' } });
  });
});
