import type { TestResult, TestSnapshot, TestStatus } from '@erasure/shared';

/** One boot's hardware test snapshot as the cloud keeps it (issue 28, item 14). */
export interface TestRun {
  record_id: string;
  submitted_at: string;
  tests: TestSnapshot;
}

/** The latest result of one test, with the boot and time it was taken. */
export interface LatestTest {
  status: TestStatus;
  detail?: string;
  taken_at: string;
  record_id: string;
}

/**
 * The latest result of each test across boots. A boot that left a test `not_started` says nothing
 * about it, so an earlier boot's verdict stands; a test never run anywhere shows as not started
 * from the newest boot that listed it. Runs may come in any order.
 */
export function latestTestResults(runs: readonly TestRun[]): Record<string, LatestTest> {
  const newestFirst = [...runs].sort((a, b) => b.submitted_at.localeCompare(a.submitted_at));
  const latest: Record<string, LatestTest> = {};
  for (const run of newestFirst) {
    for (const [id, result] of Object.entries(run.tests) as [string, TestResult | undefined][]) {
      if (!result) continue;
      const held = latest[id];
      if (held && (held.status !== 'not_started' || result.status === 'not_started')) continue;
      latest[id] = { status: result.status, ...(result.detail ? { detail: result.detail } : {}), taken_at: run.submitted_at, record_id: run.record_id };
    }
  }
  return latest;
}
