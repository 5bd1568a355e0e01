import type { DriveProgress, KioskAgentState, TestWireId } from '../contract.js';
import type { ConnectionStatus } from '../api-client.js';

/** The operator's place in the workspace once the agent has unlocked it. */
export const STEPS = ['machine', 'tests', 'notes', 'drives', 'erase'] as const;
export type Step = (typeof STEPS)[number];

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

/** Everything the renderer holds, in per-screen slices (Readonly all the way, STYLE C). */
export interface KioskData {
  readonly agent: AgentSlice;
  readonly nav: NavSlice;
  readonly tests: TestsSlice;
  readonly notes: NotesSlice;
  readonly drives: DrivesSlice;
}

export const initialData: KioskData = {
  agent: { connection: { status: 'connecting', attempt: 1 }, snapshot: undefined, progress: {} },
  nav: { step: 'machine' },
  tests: { open: null, send: { state: 'idle' } },
  notes: { draft: '', send: { state: 'idle' }, hydrated: false },
  drives: { confirmText: '', busy: false, error: undefined },
};
