import { createElement, type ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { App } from '../app.js';
import { createKioskStore } from '../store/store.js';
import { agentState, fakeAgent, manualTimers } from '../store/test-fixtures.js';
import { KioskStoreContext } from '../store/use-kiosk.js';
import type { KioskAgentState, TestWireId } from '../contract.js';
import { goTo, openTest, receiveConnection, receiveSnapshot } from '../store/reducers.js';
import { initialData, type Step } from '../store/state.js';

/** Renders the whole app for one agent state (and step), the way the kiosk would show it. */
function render(snap: KioskAgentState | undefined, step?: Step, open?: TestWireId) {
  let data = receiveConnection(initialData, { status: 'live' });
  if (snap) data = receiveSnapshot(data, snap);
  if (step) data = goTo(data, step);
  if (open) data = openTest(data, open);
  const store = createKioskStore({ api: fakeAgent().api, schedule: manualTimers().schedule, notesDebounceMs: 1 }, data);
  const tree: ReactNode = createElement(KioskStoreContext.Provider, { value: store }, createElement(App));
  // React separates adjacent text nodes with empty comments; they are not what a reader sees.
  return renderToString(tree).replaceAll('<!-- -->', '');
}

describe('screens', () => {
  it('shows the connecting screen with the attempt before any state arrives', () => {
    expect(render(undefined)).toMatch(/Connecting to the erasure agent/);
  });

  it('keeps the workspace out of reach while the agent is still checking', () => {
    const html = render(agentState({ locked: true, boot: { phase: 'health' } }));
    expect(html).toMatch(/Checking the connection to the erasure service/);
    expect(html).not.toMatch(/Hardware tests/);
  });

  it('shows the agent’s health attempt and why the last one failed', () => {
    const html = render(agentState({ locked: true, boot: { phase: 'health', attempt: 2, max_attempts: 3, last_error: 'cloud unavailable (503)' } }));
    expect(html).toMatch(/Attempt 2 of 3 — the last one failed: cloud unavailable \(503\) — trying now\./);
  });

  it('shows a denial as a locked screen in plain words, with a retry', () => {
    const html = render(agentState({ locked: true, boot: { phase: 'denied', reason: 'revoked' } }));
    expect(html).toMatch(/This machine is locked/);
    expect(html).toMatch(/licence has been revoked/);
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*>Check again/); // the agent does not allow a retry in this state
    expect(render(agentState({ locked: true, boot: { phase: 'denied', reason: 'revoked' }, can: { ...agentState().can, retry: true } }))).toMatch(/<button(?![^>]*disabled)[^>]*>Check again/);
    expect(html).not.toMatch(/Erase \d/);
  });

  it('lists every hardware test with the agent’s recorded status, and its verdict buttons', () => {
    const html = render(agentState({ tests: { keyboard: { status: 'passed' }, webcam: { status: 'failed' } } }), 'tests');
    for (const title of ['Keyboard', 'Display', 'Touchscreen', 'USB ports', 'Webcam', 'Audio', 'Battery', 'Wi-Fi adapter', 'Bluetooth']) expect(html).toContain(title);
    expect(html).toMatch(/data-test="keyboard"[^>]*>.*?badge passed/);
    expect(html).toMatch(/data-test="webcam"[^>]*>.*?badge failed/);
    expect(html).toMatch(/aria-pressed="true"[^>]*>Passed/);
  });

  it('disables verdicts when the agent does not allow test results', () => {
    const html = render(agentState({ can: { ...agentState().can, set_test_result: false } }), 'tests');
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*>Passed/);
  });

  it('renders the touch grid and the keyboard layout runners', () => {
    expect(render(agentState(), 'tests', 'touchscreen')).toMatch(/0 of 24 squares touched/);
    expect(render(agentState(), 'tests', 'keyboard')).toMatch(/0 of \d+ keys pressed/);
  });

  it('asks for the agent’s phrase on the Erase step, where Next leads from the selected drives', () => {
    const drive = { device: '/sim/a.img', model: 'SIM SSD', transport: 'sata', internal: true, plan: { ok: true as const, method: 'm', label: 'NIST 800-88 R2 Clear', category: 'Clear' as const, technique: 'Overwrite', fully_sanitized: true, warnings: [] } };
    const snap = agentState({ drives: [drive], selected: ['/sim/a.img'], confirmation: { phrase: 'ERASE 1 DRIVE', confirmed: false }, can: { ...agentState().can, confirm: true } });
    const drives = render(snap, 'drives');
    expect(drives).toMatch(/Next: Erase →/);
    expect(drives).not.toMatch(/confirm-text/);
    const erase = render(snap, 'erase');
    expect(erase).toMatch(/Type <kbd>ERASE 1 DRIVE<\/kbd> to confirm/);
    expect(erase).toMatch(/<button type="submit"[^>]*disabled=""[^>]*>Erase 1 drive/);
    expect(erase).not.toMatch(/No erase has run yet|Select drives on the Drives step/);
  });

  it('sends the Erase step back to Drives while no drive is selected', () => {
    const html = render(agentState(), 'erase');
    expect(html).toMatch(/No drives selected yet\. Tick the drives to erase on the Drives step\./);
    expect(html).toMatch(/← Back to Drives/);
    expect(html).not.toMatch(/confirm-text/);
  });
});
