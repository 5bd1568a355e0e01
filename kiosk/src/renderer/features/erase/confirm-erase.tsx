import { formatBytes } from '../../format.js';
import { useActions, useKiosk } from '../../store/use-kiosk.js';
import { confirmationOf } from '../drives/drive-rows.js';

/**
 * The typed confirmation, where "Next: Erase →" leads (issue 28 item 9): the drives about to be
 * destroyed, named once more, then the phrase the agent asks for and the button that starts.
 */
export function ConfirmErase() {
  const actions = useActions();
  const snap = useKiosk((s) => s.agent.snapshot);
  const typed = useKiosk((s) => s.drives.confirmText);
  const busy = useKiosk((s) => s.drives.busy);
  const error = useKiosk((s) => s.drives.error);
  if (!snap) return null;
  const confirmation = confirmationOf(snap, typed);
  if (confirmation.phrase === null || snap.run.status === 'running') return null;
  const n = snap.selected.length;
  const drives = snap.selected.map((device) => snap.drives.find((d) => d.device === device) ?? { device, model: undefined, size_bytes: undefined });
  return (
    <form
      className="confirm"
      aria-label="Confirm the erase"
      onSubmit={(e) => {
        e.preventDefault();
        if (confirmation.canSubmit && !busy) void actions.confirmAndStart();
      }}
    >
      <p className="danger">Everything on {n === 1 ? 'this drive' : `these ${n} drives`} will be destroyed for good:</p>
      <ul className="confirm-drives">
        {drives.map((d) => (
          <li key={d.device}>
            <strong>{d.model ?? d.device}</strong>
            <span className="muted">
              {' '}
              · {d.device.split('/').at(-1)}
              {d.size_bytes !== undefined ? ` · ${formatBytes(d.size_bytes)}` : ''}
            </span>
          </li>
        ))}
      </ul>
      <label htmlFor="confirm-text">
        Type <kbd>{confirmation.phrase}</kbd> to confirm:
      </label>
      <div className="row">
        <input id="confirm-text" value={typed} autoComplete="off" spellCheck={false} onChange={(e) => actions.setConfirmText(e.target.value)} disabled={busy} />
        <button type="submit" className="danger-btn big" disabled={!confirmation.canSubmit || busy}>
          {busy ? 'Starting…' : `Erase ${n === 1 ? '1 drive' : `${n} drives`}`}
        </button>
        <button type="button" onClick={() => actions.goTo('drives')}>
          ← Change the drives
        </button>
      </div>
      {error && (
        <p className="error" role="alert">
          The agent refused: {error}
        </p>
      )}
    </form>
  );
}
