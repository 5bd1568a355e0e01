import { useState } from 'react';
import type { TestStatus, TestWireId } from '../../contract.js';
import { useActions, useKiosk } from '../../store/use-kiosk.js';
import { STATUS_TEXT } from './test-catalog.js';

/** The spec's `detail` is free text of at most 4000 characters (spec 2, hardware test snapshot). */
const DETAIL_MAX = 4000;

/**
 * The verdict buttons of one test. Each press is a settled change, so it goes to the agent at once
 * (spec 4.1 rule 8); the highlighted button is the agent's recorded status, not a local guess.
 * A failed test asks what is wrong: the reason goes out as the result's `detail` (issue 28, item 14).
 */
export function Verdict({ id, options = ['passed', 'failed', 'not_applicable'], detail }: { id: TestWireId; options?: readonly TestStatus[]; detail?: string }) {
  const actions = useActions();
  const current = useKiosk((s) => s.agent.snapshot?.tests[id]?.status ?? 'not_started');
  const allowed = useKiosk((s) => s.agent.snapshot?.can.set_test_result ?? false);
  return (
    <>
      <div className="verdict" role="group" aria-label="Result">
        {options.map((status) => (
          <button
            key={status}
            type="button"
            className={`verdict-btn ${status}`}
            aria-pressed={current === status}
            disabled={!allowed}
            onClick={() => void actions.recordTest(id, status, detail)}
          >
            {STATUS_TEXT[status]}
          </button>
        ))}
      </div>
      {current === 'failed' && <FailReason id={id} allowed={allowed} />}
    </>
  );
}

/** "What is wrong?": the technician's words for a failed test, saved with the failed status. */
function FailReason({ id, allowed }: { id: TestWireId; allowed: boolean }) {
  const actions = useActions();
  const recorded = useKiosk((s) => s.agent.snapshot?.tests[id]?.detail ?? '');
  const [reason, setReason] = useState(recorded);
  const changed = reason.trim() !== recorded;
  return (
    <form
      className="fail-reason"
      onSubmit={(e) => {
        e.preventDefault();
        void actions.recordTest(id, 'failed', reason.trim() || undefined);
      }}
    >
      <label htmlFor={`fail-reason-${id}`}>What is wrong? (shown on the report)</label>
      <div className="fail-reason-row">
        <input
          id={`fail-reason-${id}`}
          maxLength={DETAIL_MAX}
          value={reason}
          placeholder="For example: dead pixels in the top-left corner"
          onChange={(e) => setReason(e.target.value)}
        />
        <button type="submit" disabled={!allowed || !changed}>
          Save reason
        </button>
      </div>
      {!changed && recorded !== '' && <p className="muted small">Reason saved.</p>}
    </form>
  );
}
