import { useEffect, useRef } from 'react';
import { sessionLabel } from '../../format.js';
import { useActions, useKiosk } from '../../store/use-kiosk.js';
import { DrivesScreen } from '../drives/drives-screen.js';
import { EraseScreen } from '../erase/erase-screen.js';
import { TestsScreen } from '../hardware-tests/tests-screen.js';
import { MachineScreen } from '../machine/machine-screen.js';
import { NotesScreen } from '../notes/notes-screen.js';
import { StationScreen } from '../station/station-screen.js';
import { StationSettings } from '../station/station-settings.js';
import { ValidateScreen } from '../validate/validate-screen.js';
import { STEP_LABELS, shownStep, stepsFor } from './steps.js';

/**
 * The unlocked workspace: a step list on the left (Tab, Enter), the step on the right. A hotswap
 * station (the agent's state has `station`) shows its station first and no Drives or Erase step.
 */
export function Workspace() {
  const isStation = useKiosk((s) => s.agent.snapshot?.station !== undefined);
  const chosen = useKiosk((s) => s.nav.step);
  const steps = stepsFor(isStation);
  const step = shownStep(chosen, steps);
  const account = useKiosk((s) => s.agent.snapshot?.boot.account);
  const recordId = useKiosk((s) => s.agent.snapshot?.record_id);
  const running = useKiosk((s) => s.agent.snapshot?.run.status === 'running');
  const actions = useActions();
  const heading = useRef<HTMLHeadingElement>(null);
  // Move focus to the new step's heading so keyboard users start at its top (and screen readers announce it).
  useEffect(() => heading.current?.focus(), [step]);
  return (
    <div className="workspace" data-screen={step}>
      <header className="topbar">
        <span className="brand">Erasure</span>
        <span className="unlocked-badge" title="The erasure service allowed this device for this boot">
          Unlocked{account ? ` · ${account}` : ''}
        </span>
        {recordId && (
          <span className="muted small session" title={`Boot record ${recordId}`}>
            {sessionLabel(recordId)}
          </span>
        )}
      </header>
      <nav className="steps" aria-label="Steps">
        <ol>
          {steps.map((s, i) => (
            <li key={s}>
              <button type="button" className={s === step ? 'step current' : 'step'} aria-current={s === step ? 'page' : undefined} onClick={() => actions.goTo(s)}>
                <span className="step-no">{i + 1}</span> {STEP_LABELS[s]}
                {s === 'erase' && running && <span className="pulse" aria-label="running" />}
              </button>
            </li>
          ))}
        </ol>
      </nav>
      <main className="content">
        <h1 ref={heading} tabIndex={-1} className="step-title">
          {STEP_LABELS[step]}
        </h1>
        {step === 'station' && <StationScreen />}
        {step === 'settings' && <StationSettings />}
        {step === 'machine' && <MachineScreen />}
        {step === 'tests' && <TestsScreen />}
        {step === 'notes' && <NotesScreen />}
        {step === 'drives' && <DrivesScreen />}
        {step === 'erase' && <EraseScreen />}
        {step === 'validate' && <ValidateScreen />}
      </main>
    </div>
  );
}
