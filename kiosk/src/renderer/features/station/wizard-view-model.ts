import type { GridShape, StationConnector, WizardView } from '../../contract.js';
import type { StationSlice } from '../../store/state.js';

/*
 * The mapping wizard as the screen shows it: pure functions of the agent's `wizard` and what the
 * operator is typing. The agent holds the rules; the kiosk only greys out what the agent would
 * ignore (accepting without a proposal, finishing with nothing mapped).
 */

/** One fact about a slot: label and value, e.g. ['PHY', '5']. */
export type Fact = readonly [label: string, value: string];

/** How a slot is wired, in the order a technician reads it off the hardware. */
export function connectorFacts(c: StationConnector): Fact[] {
  const facts: Array<Fact | undefined> = [
    ['Transport', c.transport.toUpperCase()],
    ['Controller', c.controller],
    c.port !== undefined ? ['Port', c.port] : undefined,
    c.phy !== undefined ? ['PHY', String(c.phy)] : undefined,
    c.expander !== undefined ? ['Expander', c.expander] : undefined,
    c.target !== undefined ? ['Target', c.target] : undefined,
    c.enclosure !== undefined ? ['Enclosure slot', `${c.enclosure.slot} (enclosure ${c.enclosure.id})`] : undefined,
    c.usb_path !== undefined ? ['USB path', c.usb_path] : undefined,
    c.pcie_slot !== undefined ? ['PCIe slot', c.pcie_slot] : undefined,
  ];
  return facts.filter((f): f is Fact => f !== undefined);
}

/** The slot on one line: "SAS · 0000:03:00.0 · phy 5 · enclosure slot 3". */
export function connectorSummary(c: StationConnector): string {
  const parts = [c.transport.toUpperCase(), c.controller, c.port !== undefined ? `port ${c.port}` : undefined, c.phy !== undefined ? `phy ${c.phy}` : undefined, c.enclosure ? `enclosure slot ${c.enclosure.slot}` : undefined];
  return parts.filter(Boolean).join(' · ');
}

/** One cell of the grid preview: a bay mapped, a number skipped, the bay asked for next, or a free cell. */
export interface PreviewCell {
  readonly number: number;
  readonly kind: 'mapped' | 'skipped' | 'next' | 'free';
  readonly text: string;
}

/**
 * The chassis as mapped so far, row-major: bay N sits at cell N-1. The grid grows by rows to
 * hold every number used, as the agent does when it saves the map.
 */
export function previewGrid(w: WizardView): { rows: number; columns: number; cells: PreviewCell[] } {
  const { columns } = w.grid;
  const showNext = w.step === 'mapping' && !allBaysAsked(w);
  const highest = Math.max(0, ...w.bays.map((b) => b.number), ...w.skipped, showNext ? w.next_bay : 0);
  const rows = Math.max(w.grid.rows, Math.ceil(highest / columns));
  const cells = Array.from({ length: rows * columns }, (_, i): PreviewCell => {
    const number = i + 1;
    const bay = w.bays.find((b) => b.number === number);
    if (bay) return { number, kind: 'mapped', text: bay.label };
    if (w.skipped.includes(number)) return { number, kind: 'skipped', text: 'Skipped' };
    if (showNext && number === w.next_bay) return { number, kind: 'next', text: 'Next' };
    return { number, kind: 'free', text: '' };
  });
  return { rows, columns, cells };
}

/** True once every bay the controllers report is mapped or skipped: no further bay is asked for. */
export const allBaysAsked = (w: Pick<WizardView, 'next_bay' | 'bay_count'>) => w.bay_count !== undefined && w.next_bay > w.bay_count;

/** The drafts the wizard reads (the store's station slice). */
export type WizardDrafts = Pick<StationSlice, 'labelDraft' | 'gridDraft' | 'nameDraft'>;

/** The mapping step: what to insert next, the slot just seen, and what the operator may do now. */
export interface MappingView {
  readonly instruction: string;
  /** Every bay the controllers report is mapped or skipped: no drive is waited for. */
  readonly allAsked: boolean;
  readonly controllers: readonly { readonly controller: string; readonly text: string }[];
  readonly proposal: { readonly lane: string; readonly label: string; readonly facts: readonly Fact[]; readonly device: string | undefined } | undefined;
  /** Why the label typed over the proposal would be refused (another bay has it), shown before Accept is pressed. */
  readonly labelProblem: string | undefined;
  readonly preexisting: readonly { readonly lane: string; readonly title: string; readonly slot: string; readonly assignText: string }[];
  readonly progress: string;
  readonly grid: { readonly rows: string; readonly columns: string };
  readonly canAccept: boolean;
  readonly canSkip: boolean;
  readonly canUndo: boolean;
  readonly canAssign: boolean;
  readonly canFinish: boolean;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The label shown for the proposal: what the operator typed over it, else the agent's. */
export function labelFor(proposal: { lane: string; label: string }, draft: WizardDrafts['labelDraft']): string {
  return draft?.lane === proposal.lane ? draft.text : proposal.label;
}

/**
 * The agent refuses a label another bay already has (spacing and case aside); the screen says so
 * as the operator types, in the agent's words, instead of after Accept.
 */
export function labelProblem(w: Pick<WizardView, 'bays'>, text: string): string | undefined {
  const norm = (t: string) => t.trim().replace(/\s+/g, ' ').toLowerCase();
  const taken = norm(text) === '' ? undefined : w.bays.find((b) => norm(b.label) === norm(text));
  return taken ? `the label “${text.trim().replace(/\s+/g, ' ')}” is already used for bay ${taken.number}: type a different one` : undefined;
}

export function mappingView(w: WizardView, drafts: WizardDrafts): MappingView {
  const pending = w.proposal !== undefined;
  const label = w.proposal && labelFor(w.proposal, drafts.labelDraft);
  const problem = label === undefined ? undefined : labelProblem(w, label);
  const done = allBaysAsked(w);
  return {
    allAsked: done,
    instruction: done ? `All ${plural(w.bay_count ?? 0, 'bay', 'bays')} of the controllers are mapped: press Finish mapping` : `Insert a drive into Bay ${w.next_bay}`,
    controllers: w.controllers.map((c) => ({ controller: c.controller, text: [c.transport.toUpperCase(), c.description].filter(Boolean).join(' · ') })),
    proposal: w.proposal && { lane: w.proposal.lane, label: label ?? w.proposal.label, facts: connectorFacts(w.proposal.connector), device: w.proposal.device },
    labelProblem: problem,
    preexisting: w.preexisting.map((p) => ({
      lane: p.lane,
      title: [p.model ?? p.device ?? 'Drive', p.serial ? `S/N ${p.serial}` : undefined].filter(Boolean).join(' · '),
      slot: connectorSummary(p.connector),
      assignText: `Assign to Bay ${w.next_bay}`,
    })),
    progress: `${plural(w.bays.length, 'bay', 'bays')} mapped${w.skipped.length ? `, ${plural(w.skipped.length, 'number', 'numbers')} skipped` : ''}`,
    grid: drafts.gridDraft ?? { rows: String(w.grid.rows), columns: String(w.grid.columns) },
    canAccept: pending && problem === undefined,
    canSkip: !pending && !done,
    canUndo: pending || w.bays.length > 0 || w.skipped.length > 0,
    canAssign: !pending && !done,
    canFinish: w.bays.length > 0 && !pending,
  };
}

/** A typed grid shape, when both numbers are whole and within what the agent takes (1 to 64). */
export function gridFromDraft(draft: { rows: string; columns: string }): GridShape | undefined {
  const read = (t: string) => (/^\s*\d+\s*$/.test(t) ? Number(t) : NaN);
  const rows = read(draft.rows);
  const columns = read(draft.columns);
  const ok = (n: number) => Number.isInteger(n) && n >= 1 && n <= 64;
  return ok(rows) && ok(columns) ? { rows, columns } : undefined;
}

/** The naming step: the name as typed, and whether Save can be pressed. */
export interface NamingView {
  readonly name: string;
  readonly site: string;
  readonly saving: boolean;
  readonly canSave: boolean;
  readonly summary: string;
  readonly error: string | undefined;
}

export function namingView(w: WizardView, nameDraft: string | undefined, siteDraft?: string): NamingView {
  const name = nameDraft ?? w.name;
  const site = siteDraft ?? w.site;
  const saving = w.step === 'saving';
  const { rows, columns } = previewGrid(w);
  return { name, site, saving, canSave: !saving && name.trim() !== '', summary: `${plural(w.bays.length, 'bay', 'bays')} in a ${rows} × ${columns} grid`, error: w.error };
}
