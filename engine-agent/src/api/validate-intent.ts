import type { AgentIntent, ValidationDeskView, ValidationDriveView, ValidationOutcomeView } from '@erasure/shared';
import { listDrives, openCloud, type AgentEnv } from '../agent.js';
import type { DiscoveredDrive } from '../probes/discover-drives.js';
import { guardTarget } from '../safety/guard.js';
import { validatePickedDrive, type PickedValidationOutcome } from '../validate/validate-picked.js';

type ValidateIntent = Extract<AgentIntent, { type: 'validate_drive' }>;
type Outcome = { ok: true } | { ok: false; reason: string };

export interface ValidationDeskPorts {
  readonly env: () => AgentEnv;
  /** Aborted on shutdown: the cloud calls end. */
  readonly signal: () => AbortSignal;
  readonly changed: () => void;
}

const n = (value: number) => value.toLocaleString('en-US');

/** Why a drive may not be read here, or undefined: never the boot medium, anything mounted or held. */
async function whyNotRead(env: AgentEnv, drive: DiscoveredDrive): Promise<string | undefined> {
  // A simulated machine's drives are image files of its own: no system runs from them.
  if (!env.config.ERASURE_SIMULATE) {
    const verdict = await guardTarget(env.sys, drive.device, [drive.device]);
    if (!verdict.ok) return verdict.code === 'boot_medium' ? 'This is the medium this machine started from; it is never read here.' : `It cannot be read here: ${verdict.reason}.`;
  }
  if (!drive.capabilities.serial) return 'It reports no serial number, so the erasure service cannot tell which erasure it was.';
  return undefined;
}

/** The outcome in the words the operator reads first. */
export function headlineOf(outcome: Extract<PickedValidationOutcome, { kind: 'validated' }>): string {
  if (outcome.result === 'approved') return `Approved: every sector reads as ${outcome.expected.replace(/ \(.*\)$/, '')}`;
  const first = outcome.read.findings[0];
  if (first) return `Rejected: ${first.what} at byte ${n(first.offset)}`;
  return `Rejected: data the erasure did not write, first at byte ${n(outcome.read.firstMismatchAt ?? 0)}`;
}

/**
 * The kiosk's "Validate a drive" action (issue 29, R2v3 Appendix B). `look` lists the attached
 * drives that may be read and asks the cloud, by serial, which it picked; `read` reads one picked
 * drive the operator chose, in the background, against what its method left, and reports the
 * result. Reads only: nothing is written to any drive, and a drive not listed as picked is refused.
 */
export class ValidationDesk {
  private drives: ValidationDriveView[] | undefined;
  private serials = new Map<string, string>();
  private reading: ValidationDeskView['reading'];
  private outcome: ValidationOutcomeView | undefined;
  /** Which `look` is current: answers of an older one are dropped. */
  private round = 0;

  constructor(private readonly ports: ValidationDeskPorts) {}

  /** `{ validation }` for the agent's state once the action was opened this boot, else nothing. */
  /** The drive being read for validation, if one is: no erase starts while it is (the read would see the erase's own bytes). */
  readingDevice(): string | undefined {
    return this.reading?.device;
  }

  view(): { validation?: ValidationDeskView } {
    if (!this.drives) return {};
    return { validation: { drives: this.drives, ...(this.reading ? { reading: this.reading } : {}), ...(this.outcome ? { outcome: this.outcome } : {}) } };
  }

  /** Applies a `validate_drive` intent; `busy` says why nothing may be read now (locked, an erase runs). */
  async apply(intent: ValidateIntent, busy: string | undefined): Promise<Outcome> {
    if (busy) return { ok: false, reason: busy };
    if (this.reading) return { ok: false, reason: `${this.reading.device} is being read: wait for its outcome` };
    return intent.step === 'look' ? this.look() : this.read(intent.device);
  }

  private async look(): Promise<Outcome> {
    const env = this.ports.env();
    const round = ++this.round;
    const found = await listDrives(env);
    const views: ValidationDriveView[] = [];
    this.serials = new Map();
    for (const drive of found) {
      const c = drive.capabilities;
      const base = { device: drive.device, ...(c.model ? { model: c.model } : {}), ...(c.serial ? { serial: c.serial } : {}), ...(c.sizeBytes !== undefined ? { size_bytes: c.sizeBytes } : {}) };
      const refused = await whyNotRead(env, drive);
      views.push(refused ? { ...base, status: 'refused', note: refused } : { ...base, status: 'asking', note: 'Asking the erasure service whether it picked this drive…' });
      if (!refused && c.serial) this.serials.set(drive.device, c.serial);
    }
    this.drives = views;
    this.ports.changed();
    const cloud = await openCloud(env, this.ports.signal());
    await Promise.all(
      [...this.serials].map(async ([device, serial]) => {
        const answer = await cloud.call('validationPick', { drive_serial: serial });
        if (round !== this.round) return;
        this.update(device, (d) => {
          if (!answer.ok) return { ...d, status: 'unavailable', note: 'The erasure service could not be asked; try again.' };
          const pick = answer.value;
          if (!pick.picked) return { ...d, status: 'not_picked', note: pick.reason };
          if (pick.validation) return { ...d, status: 'validated', certificate_number: pick.certificate_number, validation: pick.validation, note: `Its validation is on record (certificate ${pick.certificate_number}); it is not read again.` };
          return { ...d, status: 'picked', certificate_number: pick.certificate_number, note: `Erased with ${pick.wipe_method} (certificate ${pick.certificate_number}); reading it checks every sector against what that erasure left.` };
        });
      }),
    );
    return { ok: true };
  }

  private async read(device: string): Promise<Outcome> {
    const env = this.ports.env();
    const listed = this.drives?.find((d) => d.device === device);
    const serial = this.serials.get(device);
    if (!listed || !serial) return { ok: false, reason: `not a drive listed for validation: ${device}` };
    if (listed.status !== 'picked') return { ok: false, reason: `${device} is not waiting for a validation: ${listed.note}` };
    // Checked again now: a drive mounted since the list was made is not read.
    const again = (await listDrives(env)).find((d) => d.device === device);
    const refused = again ? await whyNotRead(env, again) : 'it is no longer attached';
    if (refused || again?.capabilities.serial !== serial) return { ok: false, reason: `${device} cannot be read: ${refused ?? 'another drive is attached there now'}` };
    this.outcome = undefined;
    this.reading = { device, bytes_done: 0, bytes_total: listed.size_bytes ?? 0, percent: 0 };
    this.ports.changed();
    void this.run(env, device, serial, listed.certificate_number ?? '');
    return { ok: true };
  }

  private async run(env: AgentEnv, device: string, serial: string, certificateNumber: string): Promise<void> {
    let shown = -1;
    const onProgress = (done: number, total: number) => {
      const percent = total > 0 ? Math.floor((done / total) * 100) : 100;
      this.reading = { device, bytes_done: done, bytes_total: total, percent };
      // One state per percent: a terabyte drive reads in some 100,000 chunks.
      if (percent !== shown) {
        shown = percent;
        this.ports.changed();
      }
    };
    try {
      const cloud = await openCloud(env, this.ports.signal());
      const outcome = await validatePickedDrive({ cloud, onProgress }, { device, serial });
      this.outcome = this.outcomeView(device, certificateNumber, outcome);
      if (outcome.kind === 'validated' && outcome.reported) {
        this.update(device, (d) => ({ ...d, status: 'validated', validation: outcome.result, note: `Its validation is on record (certificate ${outcome.certificateNumber}); it is not read again.` }));
      }
    } catch (error) {
      this.outcome = { device, certificate_number: certificateNumber, result: 'failed', headline: `The drive could not be read to the end: ${(error as Error).message}`, findings: '', reported: false };
    } finally {
      this.reading = undefined;
      this.ports.changed();
    }
  }

  private outcomeView(device: string, certificateNumber: string, outcome: PickedValidationOutcome): ValidationOutcomeView {
    if (outcome.kind !== 'validated') {
      // The cloud's answer changed since the list was made (validated elsewhere, unpicked): nothing was read.
      return { device, certificate_number: certificateNumber, result: 'failed', headline: `Nothing was read: ${outcome.reason}`, findings: '', reported: false };
    }
    return {
      device,
      certificate_number: outcome.certificateNumber,
      result: outcome.result,
      headline: headlineOf(outcome),
      findings: outcome.findings,
      reported: outcome.reported,
      ...(outcome.reportError ? { report_error: outcome.reportError } : {}),
    };
  }

  private update(device: string, change: (d: ValidationDriveView) => ValidationDriveView): void {
    if (!this.drives) return;
    this.drives = this.drives.map((d) => (d.device === device ? change(d) : d));
    this.ports.changed();
  }
}
