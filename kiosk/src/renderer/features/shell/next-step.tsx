import { useActions, useKiosk } from '../../store/use-kiosk.js';
import type { Step } from '../../store/state.js';
import { STEP_LABELS, stepsFor } from './steps.js';

// Its own module, not the workspace's: the screens import it, and the workspace imports the screens.
/** "Next: …" at the bottom of a step, so the flow reads top to bottom with the keyboard alone; none when this workspace has no such step. */
export function NextStep({ to }: { to: Step }) {
  const actions = useActions();
  const isStation = useKiosk((s) => s.agent.snapshot?.station !== undefined);
  if (!stepsFor(isStation).includes(to)) return null;
  return (
    <div className="next-step">
      <button type="button" className="primary" onClick={() => actions.goTo(to)}>
        Next: {STEP_LABELS[to]} →
      </button>
    </div>
  );
}
