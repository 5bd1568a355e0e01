import { useState } from 'react';
import { useActions, useKiosk } from '../../store/use-kiosk.js';
import type { ProgressRow } from './erase-view.js';
import { powerWarning } from './erase-view.js';

/**
 * A drive's Cancel, asked twice: the button, then "Stop erasing this drive?". Only when the agent
 * allows it; otherwise the agent's note (a firmware erase cannot be stopped, or stopping).
 */
export function CancelDrive({ row }: { row: ProgressRow }) {
  const actions = useActions();
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<string>();
  if (!row.canCancel) return row.cancelNote ? <p className="cancel-note muted">{row.cancelNote}</p> : null;
  const send = async () => {
    const res = await actions.sessionIntent({ type: 'cancel_drive', device: row.device });
    setAsking(false);
    setError(res.ok ? undefined : res.error);
  };
  return (
    <div className="cancel-drive">
      {!asking && (
        <button type="button" className="cancel-btn" onClick={() => setAsking(true)}>
          Cancel
        </button>
      )}
      {asking && (
        <div className="confirm-inline" role="alertdialog" aria-label={`Cancel ${row.title}`}>
          <span>Stop erasing this drive? It will not be certified.</span>
          <button type="button" className="danger-btn" onClick={() => void send()}>
            Stop this drive
          </button>
          <button type="button" onClick={() => setAsking(false)}>
            Keep erasing
          </button>
        </div>
      )}
      {error && <p className="error">{error}</p>}
    </div>
  );
}

/** Cancel all, asked twice, while the agent says a drive can still be stopped. */
export function CancelAll() {
  const actions = useActions();
  const allowed = useKiosk((s) => s.agent.snapshot?.can.cancel_all === true);
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<string>();
  if (!allowed && !asking) return null;
  const send = async () => {
    const res = await actions.sessionIntent({ type: 'cancel_all' });
    setAsking(false);
    setError(res.ok ? undefined : res.error);
  };
  return (
    <div className="cancel-all">
      {!asking ? (
        <button type="button" className="cancel-btn" onClick={() => setAsking(true)}>
          Cancel all
        </button>
      ) : (
        <div className="confirm-inline" role="alertdialog" aria-label="Cancel all drives">
          <span>Stop erasing every drive that can still be stopped? None of them will be certified.</span>
          <button type="button" className="danger-btn" onClick={() => void send()}>
            Stop all drives
          </button>
          <button type="button" onClick={() => setAsking(false)}>
            Keep erasing
          </button>
        </div>
      )}
      {error && <p className="error">{error}</p>}
    </div>
  );
}

type Power = 'shutdown' | 'restart';

/**
 * The way to finish: Shut down or Restart, confirmed once, and a second time with a plain
 * warning while results still wait to be sent (the agent refuses without that second yes).
 */
export function FinishActions() {
  const actions = useActions();
  const snap = useKiosk((s) => s.agent.snapshot);
  const [asking, setAsking] = useState<{ action: Power; stage: 'confirm' | 'pending' }>();
  const [error, setError] = useState<string>();
  if (!snap || snap.can.shutdown !== true) return null;
  const word = (a: Power) => (a === 'shutdown' ? 'Shut down' : 'Restart');
  const send = async (action: Power, pendingOk: boolean) => {
    const res = await actions.sessionIntent({ type: action, pending_ok: pendingOk });
    if (res.ok) {
      setAsking(undefined);
      setError(undefined);
      return;
    }
    setError(res.error);
    // The agent found results still waiting: the second question, with its words.
    setAsking(/still waiting/.test(res.error) ? { action, stage: 'pending' } : undefined);
  };
  const first = (action: Power) => (powerWarning(snap, action) ? setAsking({ action, stage: 'pending' }) : void send(action, false));
  const warning = (asking && powerWarning(snap, asking.action)) ?? error;
  return (
    <section className="finish" aria-label="Finish">
      {snap.power?.last && (
        <p className="banner info" role="status">
          {snap.power.last}
        </p>
      )}
      {!asking && (
        <div className="finish-buttons">
          <button type="button" onClick={() => setAsking({ action: 'shutdown', stage: 'confirm' })}>
            Shut down
          </button>
          <button type="button" onClick={() => setAsking({ action: 'restart', stage: 'confirm' })}>
            Restart
          </button>
        </div>
      )}
      {asking?.stage === 'confirm' && (
        <div className="confirm-inline" role="alertdialog" aria-label={`${word(asking.action)} this machine`}>
          <span>{asking.action === 'shutdown' ? 'Shut down this machine now?' : 'Restart this machine now?'}</span>
          <button type="button" className="primary" onClick={() => first(asking.action)}>
            {word(asking.action)}
          </button>
          <button type="button" onClick={() => setAsking(undefined)}>
            Back
          </button>
        </div>
      )}
      {asking?.stage === 'pending' && (
        <div className="confirm-inline warn" role="alertdialog" aria-label="Results not sent yet">
          <span>{warning}</span>
          <button type="button" className="danger-btn" onClick={() => void send(asking.action, true)}>
            {word(asking.action)} anyway
          </button>
          <button type="button" onClick={() => setAsking(undefined)}>
            Keep it on
          </button>
        </div>
      )}
      {error && !asking && <p className="error">{error}</p>}
    </section>
  );
}
