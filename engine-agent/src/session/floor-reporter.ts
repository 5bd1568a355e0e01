import { FLOOR_REPORT_INTERVAL_MS, type FloorReportBody } from '@erasure/shared';
import { floorChangeKey, type FloorSnapshot } from './floor-report.js';

/** How one send ended: stored or ignored by the cloud, the floor view off on this deployment, or failed (best effort). */
export type FloorSendOutcome = { readonly kind: 'ok' } | { readonly kind: 'off' } | { readonly kind: 'failed'; readonly why: string };

/** What the reporter needs from the world: a clock, a timer and the gateway call (injected, so tests drive time). */
export interface FloorReporterPorts {
  /** Epoch milliseconds (Date.now in production). */
  readonly now: () => number;
  readonly setTimer: (fn: () => void, ms: number) => () => void;
  readonly send: (body: FloorReportBody) => Promise<FloorSendOutcome>;
  readonly log: (message: string) => void;
  readonly intervalMs?: number;
}

/**
 * Sends the machine's live state to the floor view: at most once per interval, at once when a
 * drive's stage or result changes. It holds one snapshot (the newest replaces it, never a
 * queue) and one call in flight, and resends the newest every interval even when nothing
 * changed, so an idle machine does not show "lost contact"; a failed send is forgotten, since
 * the next report carries the whole state again. Results never depend on it: they travel through the outbox.
 */
export class FloorReporter {
  private readonly intervalMs: number;
  private pending: FloorSnapshot | undefined;
  private lastKey: string | undefined;
  private lastSentAt: number | undefined;
  private inFlight = false;
  private lastFailed = false;
  private cancelTimer: (() => void) | undefined;
  private sequence = 0;
  private stopped = false;
  private readonly loggedKinds = new Set<string>();

  constructor(private readonly ports: FloorReporterPorts) {
    this.intervalMs = ports.intervalMs ?? FLOOR_REPORT_INTERVAL_MS;
  }

  /** False once the deployment said the floor view is off, or after stop(): nothing more is sent this boot. */
  get active(): boolean {
    return !this.stopped;
  }

  /** The agent's state changed: keep the newest snapshot and send it when its time comes. */
  offer(snapshot: FloorSnapshot): void {
    if (this.stopped) return;
    this.pending = snapshot;
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    this.pending = undefined;
    this.cancelTimer?.();
    this.cancelTimer = undefined;
  }

  private schedule(): void {
    if (this.stopped || this.inFlight || !this.pending) return;
    // After a failure, wait the interval even for a change: a gateway that is down must not be hammered.
    const urgent = floorChangeKey(this.pending) !== this.lastKey && !this.lastFailed;
    const dueAt = this.lastSentAt === undefined || urgent ? this.ports.now() : this.lastSentAt + this.intervalMs;
    const wait = Math.max(0, dueAt - this.ports.now());
    this.cancelTimer?.();
    this.cancelTimer = this.ports.setTimer(() => {
      this.cancelTimer = undefined;
      void this.flush();
    }, wait);
  }

  private async flush(): Promise<void> {
    const snapshot = this.pending;
    if (this.stopped || this.inFlight || !snapshot) return;
    this.inFlight = true;
    const key = floorChangeKey(snapshot);
    this.lastSentAt = this.ports.now();
    const body: FloorReportBody = { ...snapshot, sequence: ++this.sequence, sent_at: new Date(this.ports.now()).toISOString() };
    let outcome: FloorSendOutcome;
    try {
      outcome = await this.ports.send(body);
    } catch (err) {
      outcome = { kind: 'failed', why: err instanceof Error ? err.message : String(err) };
    }
    this.inFlight = false;
    this.lastFailed = outcome.kind === 'failed';
    // A change that did not go out stays a change: the next report after the interval carries it.
    if (outcome.kind === 'ok') this.lastKey = key;
    if (outcome.kind === 'off') {
      this.ports.log('floor view: this deployment has it off; not reporting for the rest of this boot');
      this.stop();
      return;
    }
    if (outcome.kind === 'failed') {
      // Logged once per kind: a gateway down for an hour must not fill the journal every 5 s.
      const kind = outcome.why.split(':')[0] ?? outcome.why;
      if (!this.loggedKinds.has(kind)) {
        this.loggedKinds.add(kind);
        this.ports.log(`floor view: a report was not delivered (${outcome.why}); the next one replaces it`);
      }
    }
    this.schedule();
  }
}
