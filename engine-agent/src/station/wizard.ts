import type { Connector } from './lanes.js';

/** A bay the wizard has labelled. */
export interface MappedBay {
  /** The bay number it was asked for as (skipped numbers leave gaps): its place in the grid. */
  readonly number: number;
  readonly lane: string;
  readonly label: string;
  readonly connector: Connector;
}

type Grid = { readonly rows: number; readonly columns: number };
type SeatedLane = { readonly lane: string; readonly connector: Connector };

/** The mapping wizard (STYLE C): one state per screen. */
export type WizardState =
  | {
      readonly step: 'mapping';
      readonly bays: readonly MappedBay[];
      /** Bay numbers the operator skipped (no slot behind them, or a broken one). */
      readonly skipped: readonly number[];
      /** Lanes that already held a drive when the wizard started: asked about, never assigned silently. */
      readonly preexisting: readonly SeatedLane[];
      /** A lane just seen, with the label proposed for it, waiting for the operator to accept or type over. */
      readonly proposal?: { readonly lane: string; readonly connector: Connector; readonly label: string };
      readonly grid: Grid;
      /** The map's name and site as typed on the naming screen, kept when the operator goes back to mapping. */
      readonly name?: string;
      readonly site?: string;
      /** How many bays the controllers report, when every one of them says: no bay is asked for past it. */
      readonly bayCount?: number;
    }
  /**
   * Naming keeps everything mapping had (skips, drives asked about), so "Back to mapping" resumes
   * where the operator left: numbering goes on after the highest number used, and a seated drive
   * is still offered without re-seating it.
   */
  | { readonly step: 'naming'; readonly bays: readonly MappedBay[]; readonly skipped: readonly number[]; readonly preexisting: readonly SeatedLane[]; readonly grid: Grid; readonly name: string; readonly site?: string; readonly bayCount?: number }
  /** `site`: where the station stands, when the operator typed one (the floor view groups it there). */
  | { readonly step: 'saved'; readonly name: string; readonly site?: string; readonly bays: readonly MappedBay[] };

type Mapping = Extract<WizardState, { step: 'mapping' }>;

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
  | { readonly type: 'name'; readonly name: string; readonly site?: string }
  | { readonly type: 'saved' };

/**
 * The number of the bay being asked for next: one past the highest number mapped or skipped. The
 * number is the bay's grid cell, so it must never be handed out twice (a count of bays and skips
 * would repeat one as soon as a number in the middle is missing).
 */
export const nextBayNumber = (s: Pick<Mapping, 'bays' | 'skipped'>) => Math.max(0, ...s.bays.map((b) => b.number), ...s.skipped) + 1;

/**
 * True once every bay the controllers report has been mapped or skipped: the wizard then asks
 * for no further bay (a "Bay 5" on a 4-bay backplane would never get a drive).
 */
export const allBaysAsked = (s: Pick<Mapping, 'bays' | 'skipped' | 'bayCount'>) => s.bayCount !== undefined && nextBayNumber(s) > s.bayCount;

/**
 * Starts the wizard; drives already seated are listed to be asked about. With the controllers'
 * bay count, the grid starts as one row of them (up to 4 a row).
 */
export function startWizard(present: readonly { lane: string; connector: Connector }[], grid?: Grid, bayCount?: number): WizardState {
  const count = bayCount !== undefined && Number.isInteger(bayCount) && bayCount >= 1 ? bayCount : undefined;
  const columns = count ? Math.min(count, 4) : 4;
  const shape = grid ?? { rows: count ? Math.ceil(count / columns) : 1, columns };
  return { step: 'mapping', bays: [], skipped: [], preexisting: present, grid: shape, ...(count ? { bayCount: count } : {}) };
}

const clean = (label: string | undefined) => label?.trim().replace(/\s+/g, ' ') ?? '';

/** Labels compare as the operator reads them: spacing and case do not make two bays different. */
const sameLabel = (a: string, b: string) => clean(a).toLowerCase() === clean(b).toLowerCase();

/**
 * Why a label cannot be given to a new bay, in the operator's words, or undefined when it can:
 * two bays with one label could not be told apart in the bay view, on the Erasure Report or in
 * the wipes grid.
 */
export function labelRefusal(s: Pick<Mapping, 'bays'>, label: string | undefined): string | undefined {
  const taken = s.bays.find((b) => sameLabel(b.label, label ?? ''));
  return taken ? `the label “${clean(label)}” is already used for bay ${taken.number}: type a different one` : undefined;
}

/** `Bay N` for bay N, unless the operator already gave that label to another bay. */
function proposedLabel(s: Pick<Mapping, 'bays' | 'skipped'>): string {
  const n = nextBayNumber(s);
  for (let k = 1; ; k++) {
    const label = k === 1 ? `Bay ${n}` : `Bay ${n} (${k})`;
    if (!labelRefusal(s, label)) return label;
  }
}

/** The new bay's label: what the operator typed, else the proposal; undefined when it is taken. */
function labelFor(s: Mapping, typed: string | undefined, proposed: string): string | undefined {
  const label = clean(typed) || proposed;
  return labelRefusal(s, label) ? undefined : label;
}

/** A drive seated while naming joins the drives mapping will ask about, unless its lane is known already. */
const seatedWhileNaming = (s: Extract<WizardState, { step: 'naming' }>, lane: SeatedLane): WizardState =>
  s.bays.some((b) => b.lane === lane.lane) || s.preexisting.some((p) => p.lane === lane.lane) ? s : { ...s, preexisting: [...s.preexisting, lane] };

/**
 * The wizard's next state. The operator inserts a drive into each bay in turn: the new lane is
 * proposed as `Bay N`, which they accept or type over; they can skip a bay, undo the last one,
 * and set the grid shape. A lane already mapped is not proposed twice, and no two bays share a
 * number (grid cell) or a label. Then they name the map, and the station saves it (`saved` once
 * the cloud answered).
 */
export function stepWizard(s: WizardState, e: WizardEvent): WizardState {
  if (s.step === 'mapping') {
    switch (e.type) {
      case 'lane_seen': {
        if (s.proposal || allBaysAsked(s) || s.bays.some((b) => b.lane === e.lane) || s.preexisting.some((p) => p.lane === e.lane)) return s;
        return { ...s, proposal: { lane: e.lane, connector: e.connector, label: proposedLabel(s) } };
      }
      case 'already_present': {
        if (s.proposal?.lane === e.lane || s.bays.some((b) => b.lane === e.lane) || s.preexisting.some((p) => p.lane === e.lane)) return s;
        return { ...s, preexisting: [...s.preexisting, { lane: e.lane, connector: e.connector }] };
      }
      case 'lane_gone':
        return s.preexisting.some((p) => p.lane === e.lane) ? { ...s, preexisting: s.preexisting.filter((p) => p.lane !== e.lane) } : s;
      case 'accept': {
        if (!s.proposal) return s;
        const label = labelFor(s, e.label, s.proposal.label);
        if (!label) return s;
        const { proposal, ...rest } = s;
        return { ...rest, bays: [...s.bays, { number: nextBayNumber(s), lane: proposal.lane, connector: proposal.connector, label }] };
      }
      case 'assign_preexisting': {
        const found = s.preexisting.find((p) => p.lane === e.lane);
        const label = labelFor(s, e.label, proposedLabel(s));
        if (!found || s.proposal || !label || allBaysAsked(s)) return s;
        return { ...s, preexisting: s.preexisting.filter((p) => p.lane !== e.lane), bays: [...s.bays, { number: nextBayNumber(s), lane: found.lane, connector: found.connector, label }] };
      }
      case 'skip':
        return s.proposal || allBaysAsked(s) ? s : { ...s, skipped: [...s.skipped, nextBayNumber(s)] };
      case 'undo': {
        if (s.proposal) {
          const { proposal: _dropped, ...rest } = s;
          return rest;
        }
        // Undo whichever came last: numbers only grow, so it holds the highest number of all.
        const last = nextBayNumber(s) - 1;
        if (last === 0) return s;
        return s.skipped.includes(last) ? { ...s, skipped: s.skipped.filter((n) => n !== last) } : { ...s, bays: s.bays.filter((b) => b.number !== last) };
      }
      case 'grid':
        return Number.isInteger(e.rows) && Number.isInteger(e.columns) && e.rows >= 1 && e.columns >= 1 && e.rows * e.columns <= 512 ? { ...s, grid: { rows: e.rows, columns: e.columns } } : s;
      case 'finish':
        return s.bays.length > 0 && !s.proposal ? { step: 'naming', bays: s.bays, skipped: s.skipped, preexisting: s.preexisting, grid: s.grid, name: s.name ?? '', ...(s.site ? { site: s.site } : {}), ...(s.bayCount ? { bayCount: s.bayCount } : {}) } : s;
      default:
        return s;
    }
  }
  if (s.step === 'naming') {
    switch (e.type) {
      case 'name': {
        // A name step without a site keeps the site typed before (a kiosk that sends the name alone).
        const site = e.site ?? s.site;
        const { site: _old, ...rest } = s;
        return { ...rest, name: e.name, ...(site ? { site } : {}) };
      }
      // Back to mapping with the whole state: see the naming state.
      case 'undo':
        return { step: 'mapping', bays: s.bays, skipped: s.skipped, preexisting: s.preexisting, grid: s.grid, ...(s.name ? { name: s.name } : {}), ...(s.site ? { site: s.site } : {}), ...(s.bayCount ? { bayCount: s.bayCount } : {}) };
      case 'saved': {
        const site = clean(s.site ?? '');
        return clean(s.name) ? { step: 'saved', name: clean(s.name), ...(site ? { site } : {}), bays: s.bays } : s;
      }
      // A drive seated meanwhile cannot be proposed now: mapping asks about it if the operator goes back.
      case 'lane_seen':
      case 'already_present':
        return seatedWhileNaming(s, { lane: e.lane, connector: e.connector });
      case 'lane_gone':
        return s.preexisting.some((p) => p.lane === e.lane) ? { ...s, preexisting: s.preexisting.filter((p) => p.lane !== e.lane) } : s;
      default:
        return s;
    }
  }
  return s;
}
