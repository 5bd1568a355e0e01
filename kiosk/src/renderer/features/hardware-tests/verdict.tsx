import type { TestStatus, TestWireId } from '../../contract.js';
import { useActions, useKiosk } from '../../store/use-kiosk.js';
import { STATUS_TEXT } from './test-catalog.js';

/**
 * The verdict buttons of one test. Each press is a settled change, so it goes to the agent at once
 * (spec 4.1 rule 8); the highlighted button is the agent's recorded status, not a local guess.
 */
export function Verdict({ id, options = ['passed', 'failed', 'not_applicable'], detail }: { id: TestWireId; options?: readonly TestStatus[]; detail?: string }) {
  const actions = useActions();
  const current = useKiosk((s) => s.agent.snapshot?.tests[id]?.status ?? 'not_started');
  const allowed = useKiosk((s) => s.agent.snapshot?.can.set_test_result ?? false);
  return (
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
  );
}
