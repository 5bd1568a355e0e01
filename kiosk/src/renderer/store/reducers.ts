import type { DriveProgress, KioskAgentState, TestWireId } from '../contract.js';
import type { ConnectionStatus } from '../api-client.js';
import type { KioskData, SendState, StationSlice, Step } from './state.js';

/*
 * Pure reducers of the kiosk store: (data, input) -> data. They copy what the agent said and
 * what the operator did; what is allowed is the agent's `can`, never decided here.
 */

/**
 * A new snapshot replaces the mirror; the operator's notes draft is filled from it only once. A
 * station opens on its station step when the agent first reports one.
 */
export function receiveSnapshot(d: KioskData, snap: KioskAgentState): KioskData {
  const startedRunning = snap.run.status === 'running' && d.agent.snapshot?.run.status !== 'running';
  const stationAppeared = snap.station !== undefined && d.agent.snapshot?.station === undefined;
  // A kiosk (re)opened after this boot's erase began returns to it: its progress or its results (issue 28 item 15).
  const reopenedAfterErase = d.agent.snapshot === undefined && snap.station === undefined && snap.run.status !== 'idle';
  return {
    ...d,
    // The snapshot's progress is never older than the progress events before it (one ordered stream).
    agent: { ...d.agent, snapshot: snap, progress: snap.progress },
    // When an erase starts, its progress is what the technician needs to see.
    nav: stationAppeared ? { step: 'station' } : startedRunning || reopenedAfterErase ? { step: 'erase' } : d.nav,
    notes: d.notes.hydrated ? d.notes : { ...d.notes, draft: snap.notes, hydrated: true },
    drives: startedRunning ? { ...d.drives, confirmText: '', error: undefined } : d.drives,
  };
}

export function receiveProgress(d: KioskData, p: DriveProgress): KioskData {
  return { ...d, agent: { ...d.agent, progress: { ...d.agent.progress, [p.device]: p } } };
}

export function receiveConnection(d: KioskData, c: ConnectionStatus): KioskData {
  return { ...d, agent: { ...d.agent, connection: c } };
}

export function goTo(d: KioskData, step: Step): KioskData {
  return { ...d, nav: { step } };
}

export function openTest(d: KioskData, id: TestWireId | null): KioskData {
  return { ...d, tests: { ...d.tests, open: id } };
}

export function setTestsSend(d: KioskData, send: SendState): KioskData {
  return { ...d, tests: { ...d.tests, send } };
}

export function editNotes(d: KioskData, draft: string): KioskData {
  return { ...d, notes: { draft, send: { state: 'pending' }, hydrated: true } };
}

export function setNotesSend(d: KioskData, send: SendState): KioskData {
  return { ...d, notes: { ...d.notes, send } };
}

export function setConfirmText(d: KioskData, confirmText: string): KioskData {
  return { ...d, drives: { ...d.drives, confirmText } };
}

export function setDrivesBusy(d: KioskData, busy: boolean, error?: string): KioskData {
  return { ...d, drives: { ...d.drives, busy, error } };
}

/** The selection after the operator toggles one drive (the agent then accepts or refuses it). */
export function toggledSelection(selected: readonly string[], device: string): string[] {
  return selected.includes(device) ? selected.filter((x) => x !== device) : [...selected, device];
}

/** A station intent is on its way (`busy`), or came back: `error` is the agent's refusal, if it refused. */
export function setStationBusy(d: KioskData, busy: boolean, error?: string): KioskData {
  return { ...d, station: { ...d.station, busy, error } };
}

export function setStationError(d: KioskData, error: string | undefined): KioskData {
  return { ...d, station: { ...d.station, error } };
}

export function editStationDrafts(d: KioskData, drafts: Partial<Pick<StationSlice, 'labelDraft' | 'gridDraft' | 'nameDraft' | 'siteDraft'>>): KioskData {
  return { ...d, station: { ...d.station, ...drafts } };
}
