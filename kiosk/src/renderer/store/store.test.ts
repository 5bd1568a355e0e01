import { describe, expect, it } from 'vitest';
import { createKioskStore } from './store.js';
import { receiveProgress, receiveSnapshot, toggledSelection } from './reducers.js';
import { initialData } from './state.js';
import { agentState, fakeAgent, manualTimers, stationBays, stationWizard } from './test-fixtures.js';

const flush = () => new Promise((r) => setTimeout(r, 0));

function setup(answer?: Parameters<typeof fakeAgent>[0]) {
  const agent = fakeAgent(answer);
  const timers = manualTimers();
  const sut = createKioskStore({ api: agent.api, schedule: timers.schedule, notesDebounceMs: 800 });
  sut.getState().actions.connect();
  return { sut, agent, timers };
}

describe('kiosk store reducers', () => {
  it('mirrors each snapshot whole and takes its progress', () => {
    const snap = agentState({ progress: { '/d/a': { device: '/d/a', stage: 'write', pass: 1, bytes_done: 5, bytes_total: 10 } } });
    const sut = receiveSnapshot(initialData, snap);
    expect(sut.agent.snapshot).toBe(snap);
    expect(sut.agent.progress['/d/a']?.bytes_done).toBe(5);
  });

  it('applies a progress event between snapshots without touching other drives', () => {
    const start = receiveSnapshot(initialData, agentState({ progress: { '/d/b': { device: '/d/b', stage: 'verify', pass: 0, bytes_done: 1, bytes_total: 2 } } }));
    const sut = receiveProgress(start, { device: '/d/a', stage: 'write', pass: 1, bytes_done: 7, bytes_total: 10 });
    expect(Object.keys(sut.agent.progress).sort()).toEqual(['/d/a', '/d/b']);
  });

  it('switches to the erase step when the agent starts running, and only then', () => {
    const idle = receiveSnapshot({ ...initialData, nav: { step: 'drives' } }, agentState());
    expect(idle.nav.step).toBe('drives');
    const running = receiveSnapshot(idle, agentState({ run: { status: 'running', phase: 'checkin' } }));
    expect(running.nav.step).toBe('erase');
    const back = receiveSnapshot({ ...running, nav: { step: 'tests' } }, agentState({ run: { status: 'running', phase: 'erase' } }));
    expect(back.nav.step).toBe('tests');
  });

  it('opens on the erase step when reloaded after this boot’s erase, on the first step before one', () => {
    expect(receiveSnapshot(initialData, agentState()).nav.step).toBe('machine');
    expect(receiveSnapshot(initialData, agentState({ run: { status: 'finished', phase: 'done', exit_code: 0 } })).nav.step).toBe('erase');
    expect(receiveSnapshot(initialData, agentState({ run: { status: 'running', phase: 'erase' } })).nav.step).toBe('erase');
    // Only the first snapshot: afterwards the technician's own step stays.
    const finished = receiveSnapshot(initialData, agentState({ run: { status: 'finished', phase: 'done', exit_code: 0 } }));
    expect(receiveSnapshot({ ...finished, nav: { step: 'notes' } }, agentState({ run: { status: 'finished', phase: 'done', exit_code: 0 } })).nav.step).toBe('notes');
  });

  it('fills the notes draft from the agent once, then keeps the operator’s text', () => {
    const first = receiveSnapshot(initialData, agentState({ notes: 'dent on lid' }));
    expect(first.notes.draft).toBe('dent on lid');
    const edited = { ...first, notes: { ...first.notes, draft: 'dent on lid, no charger' } };
    expect(receiveSnapshot(edited, agentState({ notes: 'dent on lid' })).notes.draft).toBe('dent on lid, no charger');
  });

  it('opens on the station step when the agent first reports a station, and leaves the operator’s step after', () => {
    const first = receiveSnapshot(initialData, agentState({ station: stationWizard() }));
    expect(first.nav.step).toBe('station');
    expect(receiveSnapshot({ ...first, nav: { step: 'notes' } }, agentState({ station: stationBays() })).nav.step).toBe('notes');
  });

  it('toggles a drive in or out of the selection', () => {
    expect(toggledSelection(['/a'], '/b')).toEqual(['/a', '/b']);
    expect(toggledSelection(['/a', '/b'], '/a')).toEqual(['/b']);
  });
});

describe('kiosk store actions send intents and compute no rules', () => {
  it('sends one set_test_result per verdict and shows the agent’s refusal', async () => {
    const { sut, agent } = setup((i) => (i.type === 'set_test_result' && i.id === 'audio' ? { ok: false, error: 'locked: this boot is not unlocked' } : { ok: true }));
    await sut.getState().actions.recordTest('keyboard', 'passed', 'all 78 keys pressed');
    expect(agent.sent).toEqual([{ type: 'set_test_result', id: 'keyboard', status: 'passed', detail: 'all 78 keys pressed' }]);
    expect(sut.getState().tests.send).toEqual({ state: 'sent' });
    await sut.getState().actions.recordTest('audio', 'failed');
    expect(sut.getState().tests.send).toEqual({ state: 'failed', error: 'locked: this boot is not unlocked' });
  });

  it('debounces notes: many keystrokes, one set_notes with the last text', async () => {
    const { sut, agent, timers } = setup();
    const { editNotes } = sut.getState().actions;
    editNotes('N');
    editNotes('No');
    editNotes('No charger');
    expect(agent.sent).toEqual([]);
    expect(sut.getState().notes.send.state).toBe('pending');
    timers.run();
    await flush();
    expect(agent.sent).toEqual([{ type: 'set_notes', notes: 'No charger' }]);
    expect(sut.getState().notes.send.state).toBe('sent');
  });

  it('toggles drives through the agent: the selection changes only when a snapshot says so', async () => {
    const { sut, agent } = setup();
    agent.push(agentState({ selected: ['/d/a'] }));
    sut.getState().actions.toggleDrive('/d/b');
    await flush();
    expect(agent.sent).toEqual([{ type: 'select', devices: ['/d/a', '/d/b'] }]);
    expect(sut.getState().agent.snapshot?.selected).toEqual(['/d/a']);
  });

  it('confirms with the typed text, then starts; a refused confirm never starts', async () => {
    const ok = setup();
    ok.sut.getState().actions.setConfirmText('erase 2 drives');
    await ok.sut.getState().actions.confirmAndStart();
    expect(ok.agent.sent).toEqual([{ type: 'confirm', text: 'erase 2 drives' }, { type: 'start' }]);

    const refused = setup((i) => (i.type === 'confirm' ? { ok: false, error: 'type "ERASE 2 DRIVES" to confirm' } : { ok: true }));
    refused.sut.getState().actions.setConfirmText('erase');
    await refused.sut.getState().actions.confirmAndStart();
    expect(refused.agent.sent.map((i) => i.type)).toEqual(['confirm']);
    expect(refused.sut.getState().drives.error).toBe('type "ERASE 2 DRIVES" to confirm');
  });

  it('asks the agent to check a denied boot again, and shows its refusal', async () => {
    const { sut, agent } = setup(() => ({ ok: false, error: 'no check to retry now (health)' }));
    sut.getState().actions.retry();
    await flush();
    expect(agent.sent).toEqual([{ type: 'retry' }]);
    expect(sut.getState().drives).toMatchObject({ busy: false, error: 'no check to retry now (health)' });
  });

  it('records detection-only results from the fingerprint once unlocked, never over an operator’s result', async () => {
    const { agent } = setup();
    const fingerprint = { wifi_adapters: [{ name: 'wlan0' }], batteries: [{ health_pct: 91 }] };
    agent.push(agentState({ locked: true, boot: { phase: 'verify' }, can: { ...agentState().can, set_test_result: false }, fingerprint }));
    await flush();
    expect(agent.sent).toEqual([]);
    agent.push(agentState({ fingerprint, tests: { bluetooth: { status: 'failed', detail: 'operator' } } }));
    await flush();
    expect(agent.sent).toEqual([{ type: 'set_test_result', id: 'wifi_adapter', status: 'detected', detail: 'wlan0' }]);
  });
});

describe('station actions send the agent’s station intents', () => {
  const wizardStep = (step: object) => ({ type: 'station_wizard', step });

  it('sends a bay’s intent and shows the agent’s refusal until an intent is taken', async () => {
    const { sut, agent } = setup((i) => (i.type === 'bay_locate' ? { ok: false, error: 'no drive in that bay to locate' } : { ok: true }));
    await sut.getState().actions.station({ type: 'bay_locate', lane: 'lane-1' });
    expect(sut.getState().station).toMatchObject({ busy: false, error: 'no drive in that bay to locate' });
    await sut.getState().actions.station({ type: 'bay_confirm', lane: 'lane-3' });
    expect(agent.sent).toEqual([
      { type: 'bay_locate', lane: 'lane-1' },
      { type: 'bay_confirm', lane: 'lane-3' },
    ]);
    expect(sut.getState().station.error).toBeUndefined();
  });

  it('accepts the slot under the label the operator typed, then forgets the typing', async () => {
    const { sut, agent } = setup();
    sut.getState().actions.editBayLabel('lane-2', 'Top left');
    await sut.getState().actions.acceptBay('Top left');
    expect(agent.sent).toEqual([wizardStep({ action: 'accept', label: 'Top left' })]);
    expect(sut.getState().station.labelDraft).toBeUndefined();
  });

  it('sends a typed grid shape only when it is one', async () => {
    const { sut, agent } = setup();
    sut.getState().actions.editGrid({ rows: '0', columns: '4' });
    await sut.getState().actions.setGrid();
    expect(agent.sent).toEqual([]);
    sut.getState().actions.editGrid({ rows: '2', columns: '6' });
    await sut.getState().actions.setGrid();
    expect(agent.sent).toEqual([wizardStep({ action: 'grid', rows: 2, columns: 6 })]);
    expect(sut.getState().station.gridDraft).toBeUndefined();
  });

  it('sends the map name once typing pauses', async () => {
    const { sut, agent, timers } = setup();
    agent.push(agentState({ station: stationWizard({ step: 'naming', proposal: undefined }) }));
    sut.getState().actions.editMapName('Fr');
    sut.getState().actions.editMapName('Front 12-bay');
    expect(agent.sent).toEqual([]);
    timers.run();
    await flush();
    expect(agent.sent).toEqual([wizardStep({ action: 'name', name: 'Front 12-bay', site: '' })]);
  });

  it('sends the site typed beside the name with it', async () => {
    const { sut, agent, timers } = setup();
    agent.push(agentState({ station: stationWizard({ step: 'naming', proposal: undefined, name: 'Front 12-bay' }) }));
    sut.getState().actions.editMapSite('Leeds, floor 2');
    timers.run();
    await flush();
    expect(agent.sent).toEqual([wizardStep({ action: 'name', name: 'Front 12-bay', site: 'Leeds, floor 2' })]);
  });

  it('saves with the name typed so far, without waiting for the pause', async () => {
    const { sut, agent, timers } = setup();
    agent.push(agentState({ station: stationWizard({ step: 'naming', proposal: undefined }) }));
    sut.getState().actions.editMapName('Front 12-bay');
    await sut.getState().actions.saveMap();
    expect(agent.sent).toEqual([wizardStep({ action: 'name', name: 'Front 12-bay', site: '' }), wizardStep({ action: 'save' })]);
    expect(timers.pending()).toBe(0);
  });

  it('never saves when the agent refused the name', async () => {
    const { sut, agent } = setup((i) => (i.type === 'station_wizard' && i.step.action === 'name' ? { ok: false, error: 'not naming now' } : { ok: true }));
    agent.push(agentState({ station: stationWizard({ step: 'naming', proposal: undefined }) }));
    sut.getState().actions.editMapName('Front');
    await sut.getState().actions.saveMap();
    expect(agent.sent.map((i) => (i.type === 'station_wizard' ? i.step.action : i.type))).toEqual(['name']);
    expect(sut.getState().station.error).toBe('not naming now');
  });

  it('maps the chassis again from settings and shows the wizard with nothing typed left over', async () => {
    const { sut, agent } = setup();
    agent.push(agentState({ station: stationBays() }));
    sut.getState().actions.goTo('settings');
    sut.getState().actions.editMapName('Old name');
    await sut.getState().actions.remap();
    expect(agent.sent).toContainEqual({ type: 'station_remap' });
    expect(sut.getState().nav.step).toBe('station');
    expect(sut.getState().station.nameDraft).toBeUndefined();
  });

  it('switches the erase policy through the agent', async () => {
    const { sut, agent } = setup();
    await sut.getState().actions.station({ type: 'station_policy', policy: 'auto' });
    expect(agent.sent).toEqual([{ type: 'station_policy', policy: 'auto' }]);
  });
});
