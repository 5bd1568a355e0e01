import { useActions, useKiosk } from '../../store/use-kiosk.js';
import { DEFAULT_METHOD_ID, findMethod } from '@erasure/shared/contracts';
import type { AgentState, ErasureChoice } from '../../contract.js';
import { NextStep } from '../shell/next-step.js';
import { driveRows, selectableDevices } from './drive-rows.js';
import { MethodChoice, PolicyBlocked } from './method-choice.js';
import { PsidRevert } from './psid-revert.js';

/** Pick drives and read their plans and warnings; the typed confirmation is on the Erase step, where Next leads. */
export function DrivesScreen() {
  const actions = useActions();
  const snap = useKiosk((s) => s.agent.snapshot);
  const busy = useKiosk((s) => s.drives.busy);
  const error = useKiosk((s) => s.drives.error);
  if (!snap) return null;
  const rows = driveRows(snap);
  const running = snap.run.status === 'running';
  const all = selectableDevices(snap);
  const allSelected = all.length > 0 && all.every((d) => snap.selected.includes(d));
  return (
    <section className="drives">
      {running && <p className="banner info">An erase is running. See the Erase step.</p>}
      {snap.erasure?.status === 'blocked' && <PolicyBlocked reason={snap.erasure.reason} />}
      {rows.length === 0 && <p>No drives found.</p>}
      <ul className="drive-list" aria-label="Drives">
        {rows.map((d) => (
          <li key={d.device} className={d.selected ? 'drive selected' : 'drive'}>
            <label className="drive-pick">
              <input type="checkbox" checked={d.selected} disabled={!d.selectable || busy} onChange={() => actions.toggleDrive(d.device)} />
              <span className="drive-title">{d.title}</span>
              <span className="muted">{d.facts}</span>
            </label>
            {d.selfEncryption && (
              <p className={d.sedLocked ? 'self-encryption locked' : 'self-encryption muted'} data-testid="self-encryption">
                {d.sedLocked ? '🔒 ' : ''}
                {d.selfEncryption}
              </p>
            )}
            {d.connection && (
              <details className="drive-connection" data-testid="drive-connection">
                <summary>{d.connection.summary}</summary>
                <ul>
                  {d.connection.details.map((line) => (
                    <li key={line}>{line}</li>
                  ))}
                </ul>
              </details>
            )}
            {d.erasedBefore && (
              <p className="erased-before" data-testid="erased-before">
                ✓ {d.erasedBefore}. Erasing it again spends another erasure from the licence.
              </p>
            )}
            {d.method ? (
              <>
                {snap.erasure?.status === 'ready' && (
                  <MethodChoice device={d.device} erasure={snap.erasure} disabled={busy || !snap.can.select} onChoose={actions.chooseMethod} />
                )}
                {plannedAsListed(snap.erasure, d.device) ? (
                  <p className="plan">
                    <strong>{d.method}</strong>
                    <span className="muted"> · {d.duration}</span>
                  </p>
                ) : (
                  <p className="plan" data-testid="plan-chosen">
                    <strong>{chosenPlan(snap.erasure, d.device)}</strong>
                  </p>
                )}
              </>
            ) : (
              <p className="error">Cannot be erased: {d.refusal}</p>
            )}
            {((d.sedLocked && d.psidHere) || snap.psid_revert?.device === d.device) && <PsidRevert device={d.device} locked={d.sedLocked && d.psidHere} last={snap.psid_revert} disabled={busy || running} />}
            {d.warnings.length > 0 && (
              <ul className="warnings">
                {d.warnings.map((w) => (
                  <li key={w}>⚠ {w}</li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ul>
      <div className="row">
        {all.length > 1 && (
          <button type="button" onClick={() => actions.selectDrives(allSelected ? [] : all)} disabled={busy || !snap.can.select}>
            {allSelected ? 'Select none' : `Select all ${all.length}`}
          </button>
        )}
        <button type="button" onClick={() => actions.refresh()} disabled={busy || !snap.can.refresh}>
          Look for drives again
        </button>
        <button type="button" data-testid="open-validate" onClick={() => actions.goTo('validate')} disabled={running}>
          Validate a drive…
        </button>
      </div>
      {snap.unfreeze && <UnfreezeSetting unfreeze={snap.unfreeze} disabled={busy || running} onChange={actions.setUnfreeze} />}
      {snap.selected.length > 0 && !running && (
        <p className="selected-line">
          {snap.selected.length === 1 ? '1 drive selected' : `${snap.selected.length} drives selected`}. Next, confirm the erase on the Erase step.
        </p>
      )}
      {error && (
        <p className="error" role="alert">
          The agent refused: {error}
        </p>
      )}
      <NextStep to="erase" />
    </section>
  );
}

/**
 * The freeze lock removal setting: many BIOSes lock (freeze) drives at power-on, and a short
 * sleep unlocks them so they can be erased by their own secure erase. Saved for the next start.
 */
function UnfreezeSetting({ unfreeze, disabled, onChange }: { unfreeze: NonNullable<AgentState['unfreeze']>; disabled: boolean; onChange: (mode: 'auto' | 'off') => void }) {
  return (
    <details className="unfreeze-setting" data-testid="unfreeze-setting">
      <summary>Frozen drives: {unfreeze.mode === 'auto' ? 'unfrozen by a short sleep at start-up' : 'not unfrozen (erased by overwrite)'}</summary>
      <p>
        Many computers lock (“freeze”) their drives at power-on, which stops the drive’s own secure erase. With this on, the machine sleeps for a few seconds once at start-up and wakes by itself, which unlocks them. The screen goes dark meanwhile.
      </p>
      <div className="choice" role="group" aria-label="Unfreeze drives at start-up">
        {(['auto', 'off'] as const).map((m) => (
          <button key={m} type="button" className={unfreeze.mode === m ? 'choice-btn current' : 'choice-btn'} aria-pressed={unfreeze.mode === m} disabled={disabled} onClick={() => onChange(m)}>
            <strong>{m === 'auto' ? 'Unfreeze at start-up' : 'Do not unfreeze'}</strong>
          </button>
        ))}
      </div>
      {unfreeze.this_boot && <p className="muted small">This start: {unfreeze.this_boot}</p>}
      <p className="muted small">Takes effect at the next start. Set by: {unfreeze.source}.</p>
    </details>
  );
}

/**
 * The drive's listed plan (and its time) is the NIST Purge plan: it is what will run only while
 * that method is the drive's. Any other method is planned when the erase starts.
 */
function plannedAsListed(erasure: ErasureChoice | undefined, device: string): boolean {
  if (erasure?.status !== 'ready') return true;
  return (erasure.methods[device] ?? erasure.default_method) === DEFAULT_METHOD_ID;
}

/** The chosen method's passes in words, from the catalogue ("3 passes: zeros, their complement, random data"). */
function chosenPlan(erasure: ErasureChoice | undefined, device: string): string {
  const id = erasure?.status === 'ready' ? (erasure.methods[device] ?? erasure.default_method) : DEFAULT_METHOD_ID;
  const method = findMethod(id);
  if (!method) return id;
  const passes = `${method.passes.length} ${method.passes.length === 1 ? 'pass' : 'passes'} written over the whole drive`;
  if (method.technique === 'firmware') return `${method.name}: the drive's own firmware erase`;
  if (method.technique === 'firmware+overwrite') return `${method.name}: ${passes}, then the drive's own firmware erase`;
  return `${method.name}: ${passes}`;
}
