import type { ValidationDeskView, ValidationDriveView } from '@erasure/shared/contracts';
import { formatBytes } from '../../format.js';

/** One drive as the Validate screen lists it. */
export interface ValidateRow {
  readonly device: string;
  readonly title: string;
  readonly facts: string;
  /** Whether the cloud picked it, in plain words. */
  readonly verdict: string;
  readonly tone: 'ok' | 'bad' | 'info' | 'muted';
  readonly note: string;
  /** The operator may start its read now. */
  readonly canRead: boolean;
}

const VERDICT: Record<ValidationDriveView['status'], { words: string; tone: ValidateRow['tone'] }> = {
  asking: { words: 'Asking the erasure service…', tone: 'muted' },
  picked: { words: 'Picked for validation', tone: 'info' },
  validated: { words: 'Validated', tone: 'muted' },
  not_picked: { words: 'Not picked', tone: 'muted' },
  unavailable: { words: 'Could not ask the erasure service', tone: 'bad' },
  refused: { words: 'Not read here', tone: 'muted' },
};

/** The rows of the Validate screen; nothing can be started while a drive is read. */
export function validateRows(desk: ValidationDeskView): ValidateRow[] {
  return desk.drives.map((d) => {
    const verdict = VERDICT[d.status];
    const validated = d.status === 'validated' && d.validation ? `${verdict.words}: ${d.validation}` : verdict.words;
    return {
      device: d.device,
      title: d.model ?? d.device,
      facts: [d.size_bytes !== undefined ? formatBytes(d.size_bytes) : undefined, d.serial ? `serial ${d.serial}` : undefined, d.certificate_number ? `certificate ${d.certificate_number}` : undefined].filter(Boolean).join(' · '),
      verdict: d.status === 'validated' ? validated : verdict.words,
      tone: d.status === 'validated' ? (d.validation === 'rejected' ? 'bad' : 'ok') : verdict.tone,
      note: d.note,
      canRead: d.status === 'picked' && desk.reading === undefined,
    };
  });
}
