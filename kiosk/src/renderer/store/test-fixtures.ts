import type { AgentIntent, KioskAgentState, StationBayView, StationConnector, StationView, WizardView } from '../contract.js';
import type { AgentApi, IntentResult, StreamHandlers } from '../api-client.js';

/** A valid AgentState with everything empty and the boot unlocked; tests override what they need. */
export function agentState(over: Partial<KioskAgentState> = {}): KioskAgentState {
  return {
    record_id: 'CW-20261122-120000',
    locked: false,
    boot: { phase: 'unlocked', account: 'Acme Refurb' },
    drives: [],
    selected: [],
    confirmation: { phrase: null, confirmed: false },
    run: { status: 'idle' },
    progress: {},
    results: [],
    tests: {},
    notes: '',
    reports: { tests: 'idle', notes: 'idle' },
    can: { refresh: true, select: true, confirm: false, start: false, set_test_result: true, set_notes: true, retry: false },
    ...over,
  };
}

/** An in-memory agent: records intents, answers them with `answer`, and lets the test push stream events. */
export function fakeAgent(answer: (i: AgentIntent) => IntentResult = () => ({ ok: true })) {
  const sent: AgentIntent[] = [];
  let handlers: StreamHandlers | undefined;
  const api: AgentApi = {
    subscribe: (h) => {
      handlers = h;
      return () => (handlers = undefined);
    },
    send: async (i) => {
      sent.push(i);
      return answer(i);
    },
  };
  return {
    api,
    sent,
    push: (s: KioskAgentState) => handlers?.onState(s),
    handlers: () => handlers,
  };
}

/** A manual clock for debounces: `run()` fires what is due. */
export function manualTimers() {
  let queue: Array<{ fn: () => void; cancelled: boolean }> = [];
  return {
    schedule: (fn: () => void) => {
      const t = { fn, cancelled: false };
      queue.push(t);
      return () => void (t.cancelled = true);
    },
    run: () => {
      const due = queue;
      queue = [];
      for (const t of due) if (!t.cancelled) t.fn();
    },
    pending: () => queue.filter((t) => !t.cancelled).length,
  };
}

/** A SAS slot on the first controller, at `phy`; `at` places it in a chassis grid. */
export function sasSlot(phy: number, at?: { row: number; column: number; rows: number; columns: number }): StationConnector {
  return { transport: 'sas', controller: '0000:03:00.0', phy, ...(at ? { grid: at } : {}) };
}

const drive = (n: number) => ({ device: `/dev/sd${String.fromCharCode(97 + n)}`, model: 'SEAGATE ST4000NM', serial: `ZC10${n}`, size_bytes: 4_000_787_030_016, health: 'passed' as const });

/** One bay of a 2 × 5 chassis, bay `n` (1-based) in row-major order; tests override its state. */
export function stationBay(n: number, over: Partial<StationBayView> = {}): StationBayView {
  const at = { row: Math.floor((n - 1) / 5), column: (n - 1) % 5, rows: 2, columns: 5 };
  return { lane: `lane-${n}`, label: `Bay ${n}`, connector: sasSlot(n, at), state: 'empty', can_locate: false, can: { confirm: false, cancel: false }, ...over };
}

/** A station in its bay view with a bay in every state the kiosk shows. */
export function stationBays(over: Partial<StationView> = {}): StationView {
  const busy = { can_locate: true, can: { confirm: false, cancel: true } };
  return {
    phase: 'bays',
    policy: 'confirm',
    map: { name: 'Front 10-bay', grid: { rows: 2, columns: 5 } },
    bays: [
      stationBay(1),
      stationBay(2, { state: 'detected', drive: drive(2), can_locate: true }),
      stationBay(3, { state: 'awaiting_confirmation', drive: drive(3), can_locate: true, can: { confirm: true, cancel: true } }),
      stationBay(4, { state: 'checking_in', drive: drive(4), can_locate: true }),
      stationBay(5, { state: 'erasing', drive: drive(5), job_id: 'job_5', progress: { method: 'NIST 800-88 Clear, overwrite', pass: 1, percent: 42.7, bytes_per_second: 180_000_000, eta_seconds: 3_725 }, ...busy }),
      stationBay(6, { state: 'verifying', drive: drive(6), job_id: 'job_6', verify_percent: 61.2, ...busy }),
      stationBay(7, { state: 'passed', drive: drive(7), job_id: 'job_7', certificate_number: 'CW-000123', can_locate: true }),
      stationBay(8, { state: 'passed', drive: drive(8), job_id: 'job_8', can_locate: true }),
      stationBay(9, { state: 'failed', drive: drive(9), reason: 'check-in denied: quota_exceeded', untouched: true, can_locate: false }),
      stationBay(10, { state: 'pulled', drive: drive(10), job_id: 'job_10', reason: 'removed during erase', during: 'erasing', can_locate: true }),
    ],
    unmapped: [],
    watching: true,
    ...over,
  };
}

/** The mapping wizard after Bay 1, with a drive just seen in the next slot and one seated before it began. */
export function stationWizard(over: Partial<WizardView> = {}): StationView {
  const wizard: WizardView = {
    step: 'mapping',
    controllers: [{ controller: '0000:03:00.0', transport: 'sas', description: 'Broadcom SAS3008' }],
    bays: [{ number: 1, lane: 'lane-1', label: 'Bay 1', connector: sasSlot(4) }],
    skipped: [],
    next_bay: 2,
    preexisting: [{ lane: 'lane-9', connector: sasSlot(7), device: '/dev/sdi', model: 'WDC WD20EFRX', serial: 'WX11' }],
    proposal: { lane: 'lane-2', device: '/dev/sdc', label: 'Bay 2', connector: { ...sasSlot(5), port: '1', target: '0:0:5', enclosure: { id: '500605b0', slot: '2' } } },
    grid: { rows: 1, columns: 4 },
    name: '',
    site: '',
    ...over,
  };
  return { phase: 'wizard', policy: 'confirm', wizard, bays: [], unmapped: [], watching: true };
}
