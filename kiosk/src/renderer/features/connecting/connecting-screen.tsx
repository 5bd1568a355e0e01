import { useEffect, useState } from 'react';
import type { ConnectionStatus } from '../../api-client.js';
import { useKiosk } from '../../store/use-kiosk.js';
import { healthAttemptText, type Gate } from '../locked/gate.js';

/** Before the workspace: the agent's stream is not up yet, or the agent is still checking this boot. */
export function ConnectingScreen({ connection, gate }: { connection: ConnectionStatus; gate: Extract<Gate, { state: 'checking' }> | undefined }) {
  const live = connection.status === 'live';
  return (
    <main className="center-screen" aria-busy="true" data-screen="connecting">
      <div className="panel narrow">
        <div className="spinner" aria-hidden="true" />
        <h1>{live && gate ? gate.text : 'Connecting to the erasure agent…'}</h1>
        {!live && (
          <p className="muted" role="status">
            Attempt {connection.attempt}
            {connection.lastError ? ` — ${connection.lastError}` : ''}
            {connection.retryInMs ? `. Trying again in ${Math.ceil(connection.retryInMs / 1000)} s.` : ''}
          </p>
        )}
        {live && gate?.phase === 'unfreeze' && (
          <p className="notice" role="alert" data-testid="unfreeze-notice">
            The screen goes dark for a few seconds: this machine sleeps briefly and wakes up by itself. The firmware locked some drives at power-on, and a short sleep unlocks them so they can be erased by their own secure erase. Do not switch the machine off.
          </p>
        )}
        {live && gate && <HealthAttempt />}
        {live && gate && <BootSteps phase={gate.phase} />}
        <p className="muted">The screen unlocks once the erasure service has confirmed this device’s licence.</p>
      </div>
    </main>
  );
}

/** The agent's health attempts, with a countdown to the next one (re-rendered every second while waiting). */
function HealthAttempt() {
  const boot = useKiosk((s) => s.agent.snapshot?.boot);
  const [now, setNow] = useState(() => Date.now());
  const waiting = boot?.next_attempt_at !== undefined;
  useEffect(() => {
    if (!waiting) return undefined;
    setNow(Date.now()); // a new wait counts from now, not from the last tick
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [waiting, boot?.next_attempt_at]);
  const text = healthAttemptText(boot, now);
  return text ? (
    <p className="muted" role="status" data-testid="health-attempt">
      {text}
    </p>
  ) : null;
}

const STEPS = [
  ['health', 'Reach the erasure service'],
  ['verify', 'Confirm the licence'],
] as const;

function BootSteps({ phase }: { phase: string }) {
  const at = STEPS.findIndex(([p]) => p === phase);
  return (
    <ol className="boot-steps">
      {STEPS.map(([p, label], i) => (
        <li key={p} className={i < at ? 'done' : i === at ? 'current' : ''} aria-current={i === at ? 'step' : undefined}>
          {label}
        </li>
      ))}
    </ol>
  );
}

/** Shown over the last known screen while the stream to the agent is down. */
export function ConnectionBanner({ connection }: { connection: ConnectionStatus }) {
  if (connection.status === 'live') return null;
  return (
    <div className="banner bad" role="alert">
      Lost the connection to the erasure agent — reconnecting (attempt {connection.attempt}). What you see may be out of date.
    </div>
  );
}
