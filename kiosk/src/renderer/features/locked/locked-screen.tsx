import { useEffect, useRef } from 'react';
import { sessionLabel } from '../../format.js';
import { useActions, useKiosk } from '../../store/use-kiosk.js';
import { clockText, type Gate } from './gate.js';

/**
 * The agent denied this boot: nothing can be done here but read why and ask it to check again.
 * The cause is one plain sentence with what to do; the facts a technician needs to act on it
 * (this machine's addresses, the gateway, the clock) follow; the raw answer is under Details.
 */
export function LockedScreen({ gate }: { gate: Extract<Gate, { state: 'denied' }> }) {
  const actions = useActions();
  const busy = useKiosk((s) => s.drives.busy);
  const error = useKiosk((s) => s.drives.error);
  const recordId = useKiosk((s) => s.agent.snapshot?.record_id);
  const boot = useKiosk((s) => s.agent.snapshot?.boot);
  // The agent says when a check may run again (not while one runs); the kiosk only mirrors it.
  const canRetry = useKiosk((s) => s.agent.snapshot?.can.retry ?? false);
  const retry = useRef<HTMLButtonElement>(null);
  // Keyboard-only: the one action is focused, so Enter retries.
  useEffect(() => retry.current?.focus(), []);
  const addresses = boot?.addresses;
  return (
    <main className="center-screen" data-screen="locked">
      <div className="panel narrow locked">
        <svg className="lock-icon" viewBox="0 0 24 24" width="64" height="64" aria-hidden="true">
          {/* Drawn, not an emoji: the live image has no colour-emoji font. */}
          <rect x="4" y="10" width="16" height="12" rx="2" fill="currentColor" />
          <path d="M8 10V7a4 4 0 0 1 8 0v3" fill="none" stroke="currentColor" strokeWidth="2.5" />
        </svg>
        <h1>This machine is locked</h1>
        <p className="reason" role="alert">
          {gate.text}
        </p>
        {boot?.clock_synchronized === false && (
          <p className="clock-warning" data-testid="clock-unsynced">
            The clock could not be synchronized. Device licences expire, so a wrong clock can keep this machine locked: connect a network that reaches a time server, or set the clock in the firmware setup.
          </p>
        )}
        <p className="muted">No drive can be erased until the erasure service allows this device.</p>
        <dl className="locked-facts">
          <div>
            <dt>This machine’s address</dt>
            <dd data-testid="ip-addresses">{addresses && addresses.length > 0 ? addresses.join(', ') : 'none: no network connection (check the cable)'}</dd>
          </div>
          {boot?.gateway_url && (
            <div>
              <dt>Erasure service (gateway)</dt>
              <dd data-testid="gateway-url">{boot.gateway_url}</dd>
            </div>
          )}
          <div>
            <dt>Clock</dt>
            <dd data-testid="clock-state">{clockText(boot?.clock_synchronized, new Date())}</dd>
          </div>
        </dl>
        <button ref={retry} type="button" className="primary big" disabled={busy || !canRetry} onClick={() => actions.retry()}>
          {busy ? 'Checking…' : 'Check again'}
        </button>
        {error && <p className="error">Not checked again: {error}</p>}
        <details className="locked-details">
          <summary>Details</summary>
          <dl>
            {gate.reason && (
              <div>
                <dt>Service answer</dt>
                <dd data-testid="raw-reason">{gate.reason}</dd>
              </div>
            )}
            {recordId && (
              <div>
                <dt>{sessionLabel(recordId)}</dt>
                <dd>boot record {recordId}</dd>
              </div>
            )}
          </dl>
        </details>
      </div>
    </main>
  );
}
