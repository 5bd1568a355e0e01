import type { ReportSync, TestResult, TestSnapshot, TestWireId } from '@erasure/shared';

/** How the reporter reaches the gateway (the agent's typed client in serve, a recorder in tests). */
export interface ReportPorts {
  /** POST /api/tests with the full snapshot; resolves with success or the reason it failed. */
  sendTests(tests: TestSnapshot): Promise<{ ok: boolean; reason?: string }>;
  sendNotes(notes: string): Promise<{ ok: boolean; reason?: string }>;
  /** Re-sends the asset report when it was not acknowledged at boot (spec 4.1 rule 8: re-armed later). */
  resendRecord(): Promise<boolean>;
  readonly notesDebounceMs: number;
}

/**
 * The operator's hardware test results and notes, and their delivery to the gateway. The agent
 * owns sending (spec 4.1 rules 4 and 8): nothing goes out before the asset report of this boot
 * is acknowledged; every settled test change sends the full snapshot (it replaces the previous
 * one), one request at a time so an older snapshot can never land after a newer one; notes are
 * debounced and fire-and-forget.
 */
export class HardwareReporter {
  private tests: TestSnapshot = {};
  private notes = '';
  /** The boot's asset report: in flight, acknowledged, or given up (then re-sent on the next change). */
  private record: 'pending' | 'acknowledged' | 'failed' = 'pending';
  private rearming: Promise<boolean> | undefined;
  private testsSync: ReportSync = 'idle';
  private notesSync: ReportSync = 'idle';
  private testsDirty = false;
  private testsSending: Promise<void> | undefined;
  private notesTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly ports: ReportPorts,
    private readonly changed: () => void,
  ) {}

  /** Current values and delivery state, for the snapshot. */
  view(): { tests: TestSnapshot; notes: string; reports: { tests: ReportSync; notes: ReportSync } } {
    return { tests: this.tests, notes: this.notes, reports: { tests: this.testsSync, notes: this.notesSync } };
  }

  /** The boot's asset report was acknowledged: flush whatever waited for it. */
  recordAcknowledged(): void {
    this.record = 'acknowledged';
    if (this.testsSync === 'waiting') this.flushTests();
    if (this.notesSync === 'waiting') this.scheduleNotes(0);
  }

  /** Boot gave up on the asset report: reports wait, and the next change re-sends it first. */
  recordFailed(): void {
    if (this.record === 'pending') this.record = 'failed';
  }

  setTest(id: TestWireId, result: TestResult): void {
    this.tests = { ...this.tests, [id]: result };
    this.flushTests();
  }

  setNotes(notes: string): void {
    this.notes = notes;
    this.scheduleNotes(this.ports.notesDebounceMs);
  }

  /** Stops the notes timer (server shutdown). */
  close(): void {
    clearTimeout(this.notesTimer);
  }

  private set(which: 'tests' | 'notes', sync: ReportSync): void {
    if (which === 'tests') this.testsSync = sync;
    else this.notesSync = sync;
    this.changed();
  }

  /** True once the asset report is acknowledged, re-sending it (once at a time) when boot's attempt failed. */
  private async ready(): Promise<boolean> {
    if (this.record === 'acknowledged') return true;
    if (this.record === 'pending') return false; // boot's own attempt is in flight; recordAcknowledged flushes
    this.rearming ??= this.ports.resendRecord().finally(() => (this.rearming = undefined));
    if (await this.rearming) this.record = 'acknowledged';
    return this.record === 'acknowledged';
  }

  private flushTests(): void {
    this.testsDirty = true;
    this.testsSending ??= this.sendTestsLoop().finally(() => (this.testsSending = undefined));
  }

  private async sendTestsLoop(): Promise<void> {
    while (this.testsDirty) {
      if (!(await this.ready())) return this.set('tests', 'waiting');
      this.testsDirty = false;
      this.set('tests', 'sending');
      const r = await this.ports.sendTests(this.tests);
      // A newer snapshot queued meanwhile goes out next; only the last answer sets the state.
      if (!this.testsDirty) this.set('tests', r.ok ? 'sent' : 'failed');
    }
  }

  private scheduleNotes(delayMs: number): void {
    clearTimeout(this.notesTimer);
    this.notesTimer = setTimeout(() => void this.sendNotes(), delayMs);
  }

  private async sendNotes(): Promise<void> {
    if (!(await this.ready())) return this.set('notes', 'waiting');
    const notes = this.notes;
    this.set('notes', 'sending');
    const r = await this.ports.sendNotes(notes);
    if (this.notes === notes) this.set('notes', r.ok ? 'sent' : 'failed');
  }
}
