import type { Connector } from './lanes.js';

/** A bay the wizard has labelled. */
export interface MappedBay {
  /** The bay number it was asked for as (skipped numbers leave gaps): its place in the grid. */
  readonly number: number;
  readonly lane: string;
  readonly label: string;
  readonly connector: Connector;
}

/** The mapping wizard (STYLE C): one state per screen. */
export type WizardState =
  | {
      readonly step: 'mapping';
      readonly bays: readonly MappedBay[];
      /** Bay numbers the operator skipped (no slot behind them, or a broken one). */
      readonly skipped: readonly number[];
      /** Lanes that already held a drive when the wizard started: asked about, never assigned silently. */
      readonly preexisting: readonly { readonly lane: string; readonly connector: Connector }[];
      /** A lane just seen, with the label proposed for it, waiting for the operator to accept or type over. */
      readonly proposal?: { readonly lane: string; readonly connector: Connector; readonly label: string };
      readonly grid: { readonly rows: number; readonly columns: number };
    }
  | { readonly step: 'naming'; readonly bays: readonly MappedBay[]; readonly grid: { readonly rows: number; readonly columns: number }; readonly name: string }
  | { readonly step: 'saved'; readonly name: string; readonly bays: readonly MappedBay[] };

export type WizardEvent =
  /** A drive appeared in a lane (debounced). */
  | { readonly type: 'lane_seen'; readonly lane: string; readonly connector: Connector }
  /** A drive found seated when the wizard started (its start-up change event): to be asked about. */
  | { readonly type: 'already_present'; readonly lane: string; readonly connector: Connector }
  /** The drive left a lane: an unassigned seated drive is no longer asked about. */
  | { readonly type: 'lane_gone'; readonly lane: string }
  | { readonly type: 'accept'; readonly label?: string }
  /** The operator assigns a drive that was already present when the wizard started. */
  | { readonly type: 'assign_preexisting'; readonly lane: string; readonly label?: string }
  | { readonly type: 'skip' }
  | { readonly type: 'undo' }
  | { readonly type: 'grid'; readonly rows: number; readonly columns: number }
  | { readonly type: 'finish' }
  | { readonly type: 'name'; readonly name: string }
  | { readonly type: 'saved' };

/** The number of the bay being asked for next: one past the bays mapped and skipped so far. */
export const nextBayNumber = (s: Extract<WizardState, { step: 'mapping' }>) => s.bays.length + s.skipped.length + 1;

/** Starts the wizard; drives already seated are listed to be asked about. */
export function startWizard(present: readonly { lane: string; connector: Connector }[], grid = { rows: 1, columns: 4 }): WizardState {
  return { step: 'mapping', bays: [], skipped: [], preexisting: present, grid };
}

const clean = (label: string | undefined) => label?.trim().replace(/\s+/g, ' ') ?? '';

/**
 * The wizard's next state. The operator inserts a drive into each bay in turn: the new lane is
 * proposed as `Bay N`, which they accept or type over; they can skip a bay, undo the last one,
 * and set the grid shape. A lane already mapped is not proposed twice. Then they name the map,
 * and the station saves it (`saved` once the cloud answered).
 */
export function stepWizard(s: WizardState, e: WizardEvent): WizardState {
  if (s.step === 'mapping') {
    switch (e.type) {
      case 'lane_seen': {
        if (s.proposal || s.bays.some((b) => b.lane === e.lane) || s.preexisting.some((p) => p.lane === e.lane)) return s;
        return { ...s, proposal: { lane: e.lane, connector: e.connector, label: `Bay ${nextBayNumber(s)}` } };
      }
      case 'already_present': {
        if (s.proposal?.lane === e.lane || s.bays.some((b) => b.lane === e.lane) || s.preexisting.some((p) => p.lane === e.lane)) return s;
        return { ...s, preexisting: [...s.preexisting, { lane: e.lane, connector: e.connector }] };
      }
      case 'lane_gone':
        return s.preexisting.some((p) => p.lane === e.lane) ? { ...s, preexisting: s.preexisting.filter((p) => p.lane !== e.lane) } : s;
      case 'accept': {
        if (!s.proposal) return s;
        const label = clean(e.label) || s.proposal.label;
        const { proposal, ...rest } = s;
        return { ...rest, bays: [...s.bays, { number: nextBayNumber(s), lane: proposal.lane, connector: proposal.connector, label }] };
      }
      case 'assign_preexisting': {
        const found = s.preexisting.find((p) => p.lane === e.lane);
        if (!found || s.proposal) return s;
        return { ...s, preexisting: s.preexisting.filter((p) => p.lane !== e.lane), bays: [...s.bays, { number: nextBayNumber(s), lane: found.lane, connector: found.connector, label: clean(e.label) || `Bay ${nextBayNumber(s)}` }] };
      }
      case 'skip':
        return s.proposal ? s : { ...s, skipped: [...s.skipped, nextBayNumber(s)] };
      case 'undo': {
        if (s.proposal) {
          const { proposal: _dropped, ...rest } = s;
          return rest;
        }
        // Undo whichever came last: the last skip has the highest number of all.
        const lastSkip = s.skipped.at(-1) ?? 0;
        if (lastSkip === nextBayNumber(s) - 1 && lastSkip > 0) return { ...s, skipped: s.skipped.slice(0, -1) };
        return s.bays.length > 0 ? { ...s, bays: s.bays.slice(0, -1) } : s;
      }
      case 'grid':
        return Number.isInteger(e.rows) && Number.isInteger(e.columns) && e.rows >= 1 && e.columns >= 1 && e.rows * e.columns <= 512 ? { ...s, grid: { rows: e.rows, columns: e.columns } } : s;
      case 'finish':
        return s.bays.length > 0 && !s.proposal ? { step: 'naming', bays: s.bays, grid: s.grid, name: '' } : s;
      default:
        return s;
    }
  }
  if (s.step === 'naming') {
    if (e.type === 'name') return { ...s, name: e.name };
    if (e.type === 'undo') return { step: 'mapping', bays: s.bays, skipped: [], preexisting: [], grid: s.grid };
    if (e.type === 'saved' && clean(s.name)) return { step: 'saved', name: clean(s.name), bays: s.bays };
    return s;
  }
  return s;
}
