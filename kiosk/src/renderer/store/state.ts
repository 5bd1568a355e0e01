import type { DriveProgress, KioskAgentState, TestWireId } from '../contract.js';
import type { ConnectionStatus } from '../api-client.js';

/** The operator's place in the workspace once the agent has unlocked it. */
export const STEPS = ['machine', 'tests', 'notes', 'drives', 'erase'] as const;
/** A hotswap station's steps: the station first. Its drives are erased bay by bay, so it has no Drives or Erase step. */
export const STATION_STEPS = ['station', 'settings', 'machine', 'tests', 'notes'] as const;
/** Not in the step list: "Validate a drive" opens from the Drives step (issue 29). */
export type Step = (typeof STEPS)[number] | (typeof STATION_STEPS)[number] | 'validate';

/** What the agent said, as it said it (STYLE C: the kiosk only mirrors). */
export interface AgentSlice {
  readonly connection: ConnectionStatus;
  readonly snapshot: KioskAgentState | undefined;
  /** Per-drive progress: the SSE `progress` events arrive between snapshots. */
  readonly progress: Readonly<Record<string, DriveProgress>>;
}

export interface NavSlice {
  readonly step: Step;
}

/** Where a fire-and-forget intent stands; `error` is the agent's own words. */
export type SendState = { readonly state: 'idle' | 'pending' | 'sending' | 'sent' } | { readonly state: 'failed'; readonly error: string };

/** Hardware tests: which runner is open and how the last result intent went. The results are the agent's `tests`. */
export interface TestsSlice {
  readonly open: TestWireId | null;
  readonly send: SendState;
}

export interface NotesSlice {
  readonly draft: string;
  readonly send: SendState;
  /** True once the draft was filled from the agent or edited: later snapshots then leave it alone. */
  readonly hydrated: boolean;
}

export interface DrivesSlice {
  readonly confirmText: string;
  readonly busy: boolean;
  readonly error: string | undefined;
}

/**
 * The hotswap station: what the operator is typing before it is sent, and how the last station
 * intent went (`error` is the agent's refusal, in its words). The station itself is the snapshot's.
 */
export interface StationSlice {
  readonly busy: boolean;
  readonly error: string | undefined;
  /** The label typed over the agent's proposal for `lane`; a new proposal starts from the agent's label. */
  readonly labelDraft: { readonly lane: string; readonly text: string } | undefined;
  /** The grid shape as typed, until the operator sets it. */
  readonly gridDraft: { readonly rows: string; readonly columns: string } | undefined;
  /** The map name as typed; sent after a pause in typing, and before saving. */
  readonly nameDraft: string | undefined;
  /** The site as typed beside the name, sent with it. */
  readonly siteDraft: string | undefined;
}

/** Everything the renderer holds, in per-screen slices (Readonly all the way, STYLE C). */
export interface KioskData {
  readonly agent: AgentSlice;
  readonly nav: NavSlice;
  readonly tests: TestsSlice;
  readonly notes: NotesSlice;
  readonly drives: DrivesSlice;
  readonly station: StationSlice;
}

export const initialData: KioskData = {
  agent: { connection: { status: 'connecting', attempt: 1 }, snapshot: undefined, progress: {} },
  nav: { step: 'machine' },
  tests: { open: null, send: { state: 'idle' } },
  notes: { draft: '', send: { state: 'idle' }, hydrated: false },
  drives: { confirmText: '', busy: false, error: undefined },
  station: { busy: false, error: undefined, labelDraft: undefined, gridDraft: undefined, nameDraft: undefined, siteDraft: undefined },
};
