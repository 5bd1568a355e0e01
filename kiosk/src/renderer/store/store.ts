import { createStore, type StoreApi } from 'zustand/vanilla';
import type { AgentIntent, JobChoices, JobDetailsSaved, KioskJobDetails, StationIntent, TestStatus, TestWireId } from '../contract.js';
import type { AgentApi, IntentResult } from '../api-client.js';
import { detectedResults } from '../features/hardware-tests/test-catalog.js';
import { gridFromDraft } from '../features/station/wizard-view-model.js';
import * as r from './reducers.js';
import { initialData, type KioskData, type Step } from './state.js';

/** Operator intents and navigation: each one sends to the agent or changes UI-only state. */
export interface KioskActions {
  connect(): () => void;
  goTo(step: Step): void;
  openTest(id: TestWireId | null): void;
  recordTest(id: TestWireId, status: TestStatus, detail?: string): Promise<void>;
  editNotes(text: string): void;
  toggleDrive(device: string): void;
  /** Asks the agent to select exactly these drives (Select all / Select none). */
  selectDrives(devices: readonly string[]): void;
  refresh(): void;
  /** Asks the agent to erase `device` with `method` (an id the erasure policy allows); a refusal shows on the Drives step. */
  chooseMethod(device: string, method: string): void;
  /** Asks the agent to check a denied boot again (health and licence). */
  retry(): void;
  /** Saves whether frozen drives are unfrozen by a short sleep at start-up (the agent's setting). */
  setUnfreeze(mode: 'auto' | 'off'): void;
  setConfirmText(text: string): void;
  confirmAndStart(): Promise<void>;
  /** Sends a cancel, shut down or restart intent as is; the screen shows the agent's answer. */
  sessionIntent(intent: Extract<AgentIntent, { type: 'cancel_drive' | 'cancel_all' | 'shutdown' | 'restart' }>): Promise<IntentResult>;
  /** Sends one station intent (a wizard step, a setting, a bay's confirm, cancel or locate); true when the agent took it. */
  station(intent: StationIntent): Promise<boolean>;
  /** The operator types over the label the agent proposed for `lane`. */
  editBayLabel(lane: string, text: string): void;
  /** Accepts the proposed slot under `label` (the agent's proposal, or what the operator typed over it). */
  acceptBay(label: string): Promise<void>;
  editGrid(draft: { rows: string; columns: string }): void;
  /** Sends the typed grid shape, when it is one. */
  setGrid(): Promise<void>;
  /** The map name as typed; sent after a pause in typing. */
  editMapName(name: string): void;
  /** The site typed beside the map's name (optional), sent with the name. */
  editMapSite(site: string): void;
  /** Sends the typed name (if the agent has not got it yet), then asks the agent to save the map. */
  saveMap(): Promise<void>;
  /** Settings: map this chassis again; the station step then shows the wizard. */
  remap(): Promise<void>;
  /** "Send now": the agent offers the results kept on this machine to the service at once. */
  sendResults(): Promise<IntentResult>;
  /** "Validate a drive": list the drives and ask which were picked (`look`), or read one picked drive (`read`). */
  validate(intent: Extract<AgentIntent, { type: 'validate_drive' }>): Promise<IntentResult>;
  /** PSID revert of a locked self-encrypting drive: the PSID goes in this one request to the agent, and is kept nowhere here. */
  psidRevert(device: string, psid: string): Promise<IntentResult>;
  /** Job details typed or scanned at the Notes step (issue 31 item 6): as the cloud stored them, or why not. */
  saveJobDetails(details: KioskJobDetails): Promise<{ readonly ok: true; readonly saved: JobDetailsSaved } | { readonly ok: false; readonly error: string }>;
  /** The account's customers and lots for the Notes step's lists; undefined when unknown. */
  jobChoices(): Promise<JobChoices | undefined>;
}

export type KioskState = KioskData & { readonly actions: KioskActions };
export type KioskStore = StoreApi<KioskState>;

export interface StoreDeps {
  readonly api: AgentApi;
  readonly schedule: (fn: () => void, ms: number) => () => void;
  /** Quiet time before a note is saved (spec 4.1 rule 8: debounced autosave). */
  readonly notesDebounceMs: number;
}

/**
 * Creates the kiosk's one store; `connect()` starts mirroring the agent. `initial` seeds the data
 * (server-side rendering in tests reads a store's initial state, not its current one).
 */
export function createKioskStore(deps: StoreDeps, initial: KioskData = initialData): KioskStore {
  return createStore<KioskState>()((set, get) => {
    const apply = (fn: (d: KioskData) => KioskData) => set((s) => ({ ...fn(s), actions: s.actions }));
    let cancelNotes: (() => void) | undefined;
    let cancelName: (() => void) | undefined;
    let detecting = false;

    const sendTest = async (id: TestWireId, status: TestStatus, detail?: string): Promise<IntentResult> => {
      apply((d) => r.setTestsSend(d, { state: 'sending' }));
      const res = await deps.api.send({ type: 'set_test_result', id, status, ...(detail ? { detail } : {}) });
      apply((d) => r.setTestsSend(d, res.ok ? { state: 'sent' } : { state: 'failed', error: res.error }));
      return res;
    };

    /** Detection-only results, once the agent allows results and reports hardware they can be read from. */
    const autoDetect = async () => {
      const snap = get().agent.snapshot;
      if (detecting || !snap?.can.set_test_result) return;
      const fresh = (Object.entries(detectedResults(snap.fingerprint)) as Array<[TestWireId, { status: TestStatus; detail?: string }]>).filter(
        ([id]) => (snap.tests[id]?.status ?? 'not_started') === 'not_started',
      );
      detecting = true;
      for (const [id, res] of fresh) await sendTest(id, res.status, res.detail);
      detecting = false;
    };

    const runDrivesIntent = async (intent: AgentIntent): Promise<boolean> => {
      apply((d) => r.setDrivesBusy(d, true));
      const res = await deps.api.send(intent);
      apply((d) => r.setDrivesBusy(d, false, res.ok ? undefined : res.error));
      return res.ok;
    };

    const runStationIntent = async (intent: StationIntent): Promise<boolean> => {
      apply((d) => r.setStationBusy(d, true, d.station.error));
      const res = await deps.api.send(intent);
      apply((d) => r.setStationBusy(d, false, res.ok ? undefined : res.error));
      return res.ok;
    };

    /** The typed map name and site, sent unless the agent already has them; false when the agent refused them. */
    const sendMapName = async (): Promise<boolean> => {
      cancelName?.();
      const { nameDraft, siteDraft } = get().station;
      const held = get().agent.snapshot?.station?.wizard;
      const name = nameDraft ?? held?.name ?? '';
      const site = siteDraft ?? held?.site ?? '';
      if (name === (held?.name ?? '') && site === (held?.site ?? '')) return true;
      const res = await deps.api.send({ type: 'station_wizard', step: { action: 'name', name, site } });
      if (!res.ok) apply((d) => r.setStationError(d, res.error));
      return res.ok;
    };

    const actions: KioskActions = {
      connect: () =>
        deps.api.subscribe({
          onState: (snap) => {
            apply((d) => r.receiveSnapshot(d, snap));
            void autoDetect();
          },
          onProgress: (p) => apply((d) => r.receiveProgress(d, p)),
          onConnection: (c) => apply((d) => r.receiveConnection(d, c)),
        }),
      goTo: (step) => apply((d) => r.goTo(d, step)),
      openTest: (id) => apply((d) => r.openTest(d, id)),
      recordTest: async (id, status, detail) => void (await sendTest(id, status, detail)),
      editNotes: (text) => {
        apply((d) => r.editNotes(d, text));
        cancelNotes?.();
        cancelNotes = deps.schedule(() => {
          const draft = get().notes.draft;
          apply((d) => r.setNotesSend(d, { state: 'sending' }));
          void deps.api.send({ type: 'set_notes', notes: draft }).then((res) => {
            // A newer edit restarted the timer; only the latest save may report its outcome.
            if (get().notes.draft !== draft) return;
            apply((d) => r.setNotesSend(d, res.ok ? { state: 'sent' } : { state: 'failed', error: res.error }));
          });
        }, deps.notesDebounceMs);
      },
      toggleDrive: (device) => void runDrivesIntent({ type: 'select', devices: r.toggledSelection(get().agent.snapshot?.selected ?? [], device) }),
      selectDrives: (devices) => void runDrivesIntent({ type: 'select', devices: [...devices] }),
      refresh: () => void runDrivesIntent({ type: 'refresh' }),
      chooseMethod: (device, method) => void runDrivesIntent({ type: 'choose_method', device, method }),
      retry: () => void runDrivesIntent({ type: 'retry' }),
      setUnfreeze: (mode) => void runDrivesIntent({ type: 'set_unfreeze', mode }),
      setConfirmText: (text) => apply((d) => r.setConfirmText(d, text)),
      confirmAndStart: async () => {
        // Two intents because the agent keeps confirm and start apart; it checks the typed text and may refuse either.
        if (!(await runDrivesIntent({ type: 'confirm', text: get().drives.confirmText }))) return;
        await runDrivesIntent({ type: 'start' });
      },
      sessionIntent: (intent) => deps.api.send(intent),
      saveJobDetails: async (details) => (deps.api.jobDetails ? deps.api.jobDetails(details) : { ok: false, error: 'this agent does not take job details' }),
      jobChoices: async () => deps.api.jobChoices?.(),
      station: runStationIntent,
      editBayLabel: (lane, text) => apply((d) => r.editStationDrafts(d, { labelDraft: { lane, text } })),
      acceptBay: async (label) => {
        if (await runStationIntent({ type: 'station_wizard', step: { action: 'accept', label } })) apply((d) => r.editStationDrafts(d, { labelDraft: undefined }));
      },
      editGrid: (draft) => apply((d) => r.editStationDrafts(d, { gridDraft: draft })),
      setGrid: async () => {
        const draft = get().station.gridDraft;
        const grid = draft && gridFromDraft(draft);
        if (!grid) return;
        if (await runStationIntent({ type: 'station_wizard', step: { action: 'grid', ...grid } })) apply((d) => r.editStationDrafts(d, { gridDraft: undefined }));
      },
      editMapName: (name) => {
        apply((d) => r.editStationDrafts(d, { nameDraft: name }));
        cancelName?.();
        // The name saves like the notes do: once typing pauses, so the agent keeps it across a kiosk reload.
        cancelName = deps.schedule(() => void sendMapName(), deps.notesDebounceMs);
      },
      editMapSite: (site) => {
        apply((d) => r.editStationDrafts(d, { siteDraft: site }));
        cancelName?.();
        cancelName = deps.schedule(() => void sendMapName(), deps.notesDebounceMs);
      },
      saveMap: async () => {
        if (!(await sendMapName())) return;
        if (await runStationIntent({ type: 'station_wizard', step: { action: 'save' } })) apply((d) => r.editStationDrafts(d, { nameDraft: undefined, siteDraft: undefined }));
      },
      remap: async () => {
        if (!(await runStationIntent({ type: 'station_remap' }))) return;
        // A new wizard starts from the agent's proposals, not from what was typed for the last map.
        apply((d) => r.goTo(r.editStationDrafts(d, { labelDraft: undefined, gridDraft: undefined, nameDraft: undefined, siteDraft: undefined }), 'station'));
      },
      // What the round did shows in the agent's state (results flip to delivered); a refusal says the service is still away.
      sendResults: () => deps.api.send({ type: 'send_results' }),
      validate: (intent) => deps.api.send(intent),
      psidRevert: (device, psid) => deps.api.send({ type: 'psid_revert', device, psid }),
    };
    return { ...initial, actions };
  });
}
