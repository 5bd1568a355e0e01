import { forecastSeconds, type FloorBoard, type FloorBoardDrive, type FloorBoardMachine, type FloorDriveStage } from '@erasure/shared/contracts';

/** A drive's place in plain words, as a supervisor reads it from across the room. */
export const STAGE_TEXT: Readonly<Record<FloorDriveStage, string>> = {
  waiting: 'Waiting',
  prepare: 'Preparing',
  write: 'Erasing',
  verify: 'Verifying',
  firmware: 'Erasing (drive command)',
  erased: 'Erased',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

const RUNNING: ReadonlySet<FloorDriveStage> = new Set(['prepare', 'write', 'verify', 'firmware']);
const DONE: ReadonlySet<FloorDriveStage> = new Set(['erased', 'failed', 'cancelled']);

/** Whether the drive is being erased right now: never once its result is in. */
export const isRunning = (d: FloorBoardDrive): boolean => !d.result && RUNNING.has(d.stage);

/**
 * The drive's progress, 0–100, while it has bytes to count; a full bar once erased. A failed or
 * cancelled drive has no bar: a full one would read as done, and its bytes say nothing now.
 */
export function percentOf(d: FloorBoardDrive): number | undefined {
  if (d.result) return d.result.status === 'completed' ? 100 : undefined;
  if (d.stage === 'erased') return 100;
  if (DONE.has(d.stage)) return undefined;
  if (d.bytes_total <= 0) return undefined;
  return Math.min(100, (d.bytes_done / d.bytes_total) * 100);
}

/** What needs a person first: failed drives, stalled drives, machines out of contact. */
export interface FloorProblem {
  readonly key: string;
  readonly tone: 'danger' | 'warning';
  readonly text: string;
}

export function problemsOf(board: FloorBoard, time: (iso: string) => string): FloorProblem[] {
  const problems: FloorProblem[] = [];
  for (const m of board.machines) {
    const name = machineName(m);
    if (m.lost_contact) problems.push({ key: `${m.machine_id}:lost`, tone: 'warning', text: `${name}: lost contact (last heard ${time(m.last_report_at)})` });
    for (const d of m.drives) {
      const drive = driveName(d);
      if (d.stage === 'failed' || d.result?.status === 'failed') problems.push({ key: `${m.machine_id}:${d.device}:failed`, tone: 'danger', text: `${name}: ${drive} failed${d.error ? `: ${d.error}` : ''}` });
      else if (d.stalled_since && isRunning(d)) problems.push({ key: `${m.machine_id}:${d.device}:stalled`, tone: 'warning', text: `${name}: ${drive} has made no progress since ${time(d.stalled_since)}` });
    }
  }
  return problems;
}

export const machineName = (m: FloorBoardMachine): string => m.name ?? (m.kind === 'station' ? 'Hotswap station' : 'Machine');
export const driveName = (d: FloorBoardDrive): string => [d.bay, d.model, d.serial && `S/N ${d.serial}`].filter(Boolean).join(' · ') || d.device;

/**
 * When a station drive's bay will be free (issue 32): the bay's `free_at` as the station reported
 * it, for a drive still at work in that bay; none for a machine's drive or a drive that is done.
 */
export function bayFreeAt(m: FloorBoardMachine, d: FloorBoardDrive): string | undefined {
  if (!d.bay || !isRunning(d)) return undefined;
  return m.bays?.find((b) => b.label === d.bay)?.free_at;
}

/** Machines grouped by site, sites in name order, machines without one last under "No site set". */
export function bySite(board: FloorBoard): { site: string; machines: FloorBoardMachine[] }[] {
  const groups = new Map<string, FloorBoardMachine[]>();
  for (const m of board.machines) {
    const site = m.site ?? '';
    groups.set(site, [...(groups.get(site) ?? []), m]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => (a === '' ? 1 : b === '' ? -1 : a.localeCompare(b)))
    .map(([site, machines]) => ({ site: site || 'No site set', machines }));
}

/** A machine's time to done: the longest time left of its running drives, or its job's own estimate. */
export function machineSecondsLeft(m: FloorBoardMachine): number | undefined {
  const running = m.drives.filter(isRunning);
  if (running.length === 0) return undefined;
  const etas = running.map((d) => d.eta_seconds).filter((s): s is number => s !== undefined);
  const longest = etas.length > 0 ? Math.max(...etas) : undefined;
  return m.job?.eta_seconds ?? longest;
}

export interface LotLine {
  readonly lot: string;
  readonly done: number;
  readonly running: number;
  readonly waiting: number;
  /** Seconds from the board's time until the last drive of the lot is done, from the measured rates; undefined until a rate is known. */
  readonly secondsLeft: number | undefined;
}

/** Per lot: drives done, running and waiting, and the forecast (shared/src/floor-forecast.ts). */
export function lotLines(board: FloorBoard): LotLine[] {
  const lots = new Map<string, { machine: FloorBoardMachine; drive: FloorBoardDrive }[]>();
  for (const machine of board.machines) {
    for (const drive of machine.drives) {
      if (!drive.lot_reference) continue;
      lots.set(drive.lot_reference, [...(lots.get(drive.lot_reference) ?? []), { machine, drive }]);
    }
  }
  return [...lots.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([lot, entries]) => {
      const drives = entries.map((e) => e.drive);
      const running = drives.filter(isRunning);
      const waiting = drives.filter((d) => !d.result && d.stage === 'waiting');
      const done = drives.length - running.length - waiting.length;
      return { lot, done, running: running.length, waiting: waiting.length, secondsLeft: forecastSeconds(running, waiting) };
    });
}

/**
 * The line under a machine's name: out of contact first; then a drive standing still, since its
 * machine's finish time no longer holds; then the time to done; "Erasing" while no drive has a
 * rate to estimate from yet; "Nothing erasing" once none runs.
 */
export function machineStatus(m: FloorBoardMachine, time: (iso: string) => string, duration: (seconds: number) => string): string {
  if (m.lost_contact) return `Lost contact · last heard ${time(m.last_report_at)}`;
  const running = m.drives.filter(isRunning);
  if (running.length === 0) return 'Nothing erasing';
  const stalled = running.map((d) => d.stalled_since).filter((s): s is string => s !== undefined).sort();
  if (stalled[0]) return `${stalled.length === 1 ? 'A drive has' : `${stalled.length} drives have`} made no progress since ${time(stalled[0])}`;
  const left = machineSecondsLeft(m);
  return left === undefined ? 'Erasing' : `Done in ${duration(left)}`;
}
