import type { BayStateName, StationBayView, StationView } from '../../contract.js';
import { formatBytes, formatClock, formatDuration, formatRate } from '../../format.js';

/*
 * The bay view as the screen shows it: pure functions of the agent's `station`. Each bay says
 * exactly one state in plain words; what a bay allows is the agent's `can`, never decided here.
 */

/** One bay card, placed in the chassis grid (0-based row and column). */
export interface BayCell {
  readonly lane: string;
  readonly label: string;
  readonly state: BayStateName;
  readonly row: number;
  readonly column: number;
  readonly headline: string;
  /** What this state has to say beyond its headline (progress, certificate, reason). */
  readonly lines: readonly string[];
  /** The drive in the bay on one line, if there is one. */
  readonly drive: string | undefined;
  /** Erase or read-back progress (0–100) for the bar, while there is some. */
  readonly percent: number | undefined;
  /** "Erase this drive" while the drive waits for the operator or was left alone; "Leave it" while it waits. */
  readonly canConfirm: boolean;
  readonly canLeave: boolean;
  /** Stop an erase or a read-back under way. */
  readonly canStop: boolean;
  readonly canLocate: boolean;
  /**
   * The serial job details typed for this bay go under, while they can still reach its result
   * (the drive is in the bay and its result is not sent yet); undefined otherwise.
   */
  readonly jobSerial: string | undefined;
  readonly tooltip: string;
}

/** States in which a bay's drive has not had its result sent: job details typed now still reach it. */
const TAGGABLE: ReadonlySet<BayStateName> = new Set(['detected', 'awaiting_confirmation', 'checking_in', 'erasing', 'verifying']);

export const NO_LOCATE = 'This enclosure cannot blink a locate LED';

const HEADLINE: Readonly<Record<BayStateName, string>> = {
  empty: 'Empty',
  detected: 'Drive detected',
  awaiting_confirmation: 'Waiting for your confirmation',
  checking_in: 'Checking in with the erasure service…',
  erasing: 'Erasing',
  verifying: 'Verifying',
  passed: 'Erased and verified',
  failed: 'Failed',
  cancelled: 'Cancelled',
  pulled: 'Removed during erase',
};

/** A bay whose check-in got no answer: the drive waits, untouched (issue 32, lights-out). */
const WAITING_FOR_SERVICE = 'Waiting for the erasure service';

function headlineOf(b: StationBayView): string {
  return b.state === 'checking_in' && b.waiting_for_cloud ? WAITING_FOR_SERVICE : HEADLINE[b.state];
}

const DURING: Readonly<Record<string, string>> = { checking_in: 'checking in', erasing: 'erasing', verifying: 'verifying' };

type Drive = NonNullable<StationBayView['drive']>;

/** The drive on one line: "SIM SSD · 64.0 MB · S/N S1". */
export function driveSummary(d: Drive | undefined): string {
  if (!d) return 'Unknown drive';
  return [d.model ?? d.device, formatBytes(d.size_bytes), d.serial ? `S/N ${d.serial}` : undefined].filter(Boolean).join(' · ');
}

const health = (d: Drive | undefined) => `SMART health: ${d?.health === 'failed' ? 'FAILED' : (d?.health ?? 'unknown')}`;

/** The lines under a bay's headline, for its one state (the drive itself is said apart). */
export function bayLines(b: StationBayView, nowMs: number): string[] {
  switch (b.state) {
    case 'empty':
      return [];
    case 'checking_in': {
      const w = b.waiting_for_cloud;
      if (!w) return [];
      const tries = w.attempts === 1 ? '1 try' : `${w.attempts} tries`;
      return [`No answer since ${formatClock(w.since) ?? '–'} (${tries}); trying again about ${formatClock(w.retry_at) ?? '–'}`, 'Not erased until the service allows it'];
    }
    case 'detected':
      // Only a drive the operator left alone stays here: say it is untouched and can still be erased.
      return [health(b.drive), b.can.confirm ? 'Left as it is: not erased' : undefined].filter((l): l is string => l !== undefined);
    case 'awaiting_confirmation':
      return [health(b.drive)];
    case 'erasing': {
      const p = b.progress;
      if (!p) return ['Starting…'];
      const rate = formatRate(p.bytes_per_second);
      const eta = formatDuration(p.eta_seconds);
      // The same forecast the floor view shows for the bay (its free_at): now plus the erase's time left.
      const freeAt = p.eta_seconds === undefined ? undefined : formatClock(new Date(nowMs + p.eta_seconds * 1000).toISOString());
      return [
        `${p.method} — pass ${p.pass}`,
        [`${Math.floor(p.percent)}%`, rate === '–' ? undefined : rate, eta === '–' ? undefined : `${eta} left`].filter(Boolean).join(' · '),
        ...(freeAt ? [`Bay free about ${freeAt}`] : []),
      ];
    }
    case 'verifying':
      return [b.verify_percent === undefined ? 'Reading the drive back…' : `Reading back — ${Math.floor(b.verify_percent)}%`];
    case 'passed':
      return [b.certificate_number ? `Certificate ${b.certificate_number}` : 'certificate pending'];
    case 'failed':
      return [b.reason ?? 'No reason given', b.untouched ? 'drive untouched' : 'The drive may be partly erased: erase it again before reuse'];
    case 'cancelled':
      return [b.untouched ? 'Stopped before anything was written: not erased, not certified' : 'Stopped part-way: not certified. Erase it again before reuse'];
    case 'pulled': {
      // The agent's reason often repeats the headline; say it only when it adds something.
      const reason = b.reason && b.reason.toLowerCase() !== HEADLINE.pulled.toLowerCase() ? b.reason : undefined;
      return [reason, b.during ? `Pulled while ${DURING[b.during] ?? b.during}` : undefined].filter((l): l is string => l !== undefined);
    }
  }
}

function percentOf(b: StationBayView): number | undefined {
  if (b.state === 'erasing') return b.progress?.percent;
  if (b.state === 'verifying') return b.verify_percent;
  return undefined;
}

function tooltipOf(b: StationBayView): string {
  // The service's own words for a bay that waits for it (gateway unreachable: …) are for whoever fixes the network.
  const base = `${b.label}: ${headlineOf(b)}${b.state === 'checking_in' && b.waiting_for_cloud ? ` (${b.waiting_for_cloud.reason})` : ''}`;
  if (b.can_locate) return `${base} — Locate blinks its LED`;
  return b.state === 'empty' ? base : `${base} — ${NO_LOCATE}`;
}

/**
 * The bays laid out like the chassis: each at its saved grid place (`connector.grid`), the rest
 * in order in the free cells. The grid grows by rows when the bays need more cells than its shape.
 */
export function bayGrid(station: StationView, nowMs = Date.now()): { rows: number; columns: number; cells: BayCell[] } {
  const shape = station.map?.grid ?? { rows: 1, columns: Math.max(1, station.bays.length) };
  const { columns } = shape;
  const taken = new Set<number>();
  const place = new Map<StationBayView, number>();
  for (const b of station.bays) {
    const g = b.connector?.grid;
    if (!g || g.column >= columns) continue;
    const at = g.row * columns + g.column;
    if (taken.has(at)) continue;
    taken.add(at);
    place.set(b, at);
  }
  let free = 0;
  for (const b of station.bays) {
    if (place.has(b)) continue;
    while (taken.has(free)) free++;
    taken.add(free);
    place.set(b, free);
  }
  const last = Math.max(-1, ...taken);
  const cells = station.bays.map((b): BayCell => {
    const at = place.get(b) ?? 0;
    return {
      lane: b.lane,
      label: b.label,
      state: b.state,
      row: Math.floor(at / columns),
      column: at % columns,
      headline: headlineOf(b),
      lines: bayLines(b, nowMs),
      drive: b.state === 'empty' ? undefined : driveSummary(b.drive),
      percent: percentOf(b),
      canConfirm: (b.state === 'awaiting_confirmation' || b.state === 'detected') && b.can.confirm,
      canLeave: b.state === 'awaiting_confirmation' && b.can.cancel,
      canStop: (b.state === 'checking_in' || b.state === 'erasing' || b.state === 'verifying') && b.can.cancel,
      canLocate: b.can_locate,
      jobSerial: TAGGABLE.has(b.state) ? b.drive?.serial || undefined : undefined,
      tooltip: tooltipOf(b),
    };
  });
  return { rows: Math.max(shape.rows, Math.floor(last / columns) + 1), columns, cells };
}

/** Said once under the bays when a seated drive's enclosure has no locate LED. */
/**
 * "Erase every waiting bay" (issue 32): how many bays it would start, the ones whose drive waits
 * for the operator (a drive they left alone is not waiting), and the button's words.
 */
export function eraseWaiting(station: StationView): { count: number; text: string } {
  const count = station.bays.filter((b) => b.state === 'awaiting_confirmation' && b.can.confirm).length;
  return { count, text: count === 0 ? 'No bay is waiting' : count === 1 ? 'Erase the waiting bay' : `Erase all ${count} waiting bays` };
}

export function locateNote(station: StationView): string | undefined {
  return station.bays.some((b) => b.state !== 'empty' && !b.can_locate) ? NO_LOCATE : undefined;
}

export const POLICY_TEXT: Readonly<Record<StationView['policy'], string>> = {
  auto: 'Erase starts on insert',
  confirm: 'Each drive waits for confirmation',
};

/** The banner when the station cannot watch drives come and go (then it sees no inserts or pulls). */
export function watchWarning(station: StationView): string | undefined {
  if (station.watching) return undefined;
  // A station that refused to start never watched: its own reason says all there is to say.
  if (station.phase === 'failed' && !station.watch_error) return undefined;
  return `This station cannot see drives being inserted or pulled${station.watch_error ? `: ${station.watch_error}` : '.'}`;
}

/** Drives in slots the map does not name: shown so nobody expects them erased. */
export function unmappedRows(station: StationView): { key: string; text: string }[] {
  return station.unmapped.map((u) => ({ key: `${u.device}|${u.lane ?? ''}`, text: u.lane ? `${u.device} — slot ${u.lane}` : u.device }));
}

/** What the station area says before it has a wizard or bays to show; undefined once it has. */
export function stationNotice(station: StationView): { tone: 'info' | 'bad'; text: string } | undefined {
  switch (station.phase) {
    case 'waiting_for_unlock':
    case 'looking_up':
      return { tone: 'info', text: 'Looking up this chassis’s bay map…' };
    case 'failed':
      return { tone: 'bad', text: `The station could not start: ${station.reason ?? 'no reason was given'}` };
    case 'wizard':
      return station.wizard ? undefined : { tone: 'info', text: 'Starting the mapping wizard…' };
    case 'bays':
      return undefined;
  }
}
