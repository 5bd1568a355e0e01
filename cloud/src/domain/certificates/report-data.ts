import {
  TEST_WIRE_IDS,
  type CertificateStatus,
  type Fingerprint,
  type TestSnapshot,
  type WipeResultRecord,
} from '@erasure/shared';
import type { CertificateContent } from './certificate-content.js';
import { formatCapacityGb, formatDriveBytes, formatUnknown, formatYesNo, titleize } from './format.js';
import { ENGLISH, type Wording } from './i18n/wording.js';

/** Everything the Erasure Report prints, gathered by the certificate job. */
export interface ErasureReportData {
  readonly certificate: CertificateContent;
  /** Base64 Ed25519 signature of the certificate, attached to the report as to the certificate. */
  readonly signature: string;
  /** The stored wipe result record (spec 2), printed field by field. */
  readonly wipeResult: WipeResultRecord & {
    readonly wipe_result_id?: string;
    readonly certificate_status?: CertificateStatus | null;
  };
  /** Raw hardware document of the source machine's latest boot; null for hotswap or unmatched drives. */
  readonly fingerprint: Fingerprint | null;
  readonly tests: TestSnapshot | null;
  readonly notes: string | null;
}

/** `[label, wire key, printed value]` for every field of the wipe result record, in spec order. */
export function wipeRecordRows(record: ErasureReportData['wipeResult'], capacity?: string | null, w: Wording = ENGLISH): [string, string, string][] {
  const notReported = w.t('record.notReported');
  const text = (v: string | null | undefined) => (v === null || v === undefined || v === '' ? notReported : v);
  const int = (v: number | null | undefined) => (v === null ? w.t('record.noPasses') : v === undefined ? notReported : String(v));
  // Values are printed as the device sent them (wire values are the spec's words); labels are translated.
  return [
    [w.t('record.wipeResultId'), 'wipe_result_id', text(record.wipe_result_id)],
    [w.t('record.jobId'), 'job_id', record.job_id],
    [w.t('report.driveSerial'), 'drive_serial', text(record.drive_serial)],
    [w.t('report.driveModel'), 'drive_model', text(record.drive_model)],
    [w.t('record.driveCapacity'), 'drive_capacity_gb', text(capacity ?? formatCapacityGb(record.drive_capacity_gb, w))],
    [w.t('record.wipeMethod'), 'wipe_method', text(record.wipe_method)],
    [w.t('field.passes'), 'passes_completed', int(record.passes_completed)],
    [w.t('record.startedAt'), 'started_at', text(record.started_at)],
    [w.t('record.completedAt'), 'completed_at', text(record.completed_at)],
    [w.t('record.verificationHash'), 'verification_hash', text(record.verification_hash)],
    // Absent status and validation have defined meanings (spec 2); say so rather than print a dash.
    [w.t('record.wipeStatus'), 'wipe_status', record.wipe_status ?? w.t('record.statusAbsent')],
    [w.t('field.technique'), 'technique', text(record.technique)],
    [w.t('record.validation'), 'validation', record.validation ?? w.t('record.validationAbsent')],
    [w.t('record.disposition'), 'disposition', text(record.disposition)],
    [w.t('record.markingsRemoved'), 'markings_removed', text(formatYesNo(record.markings_removed, w))],
    [w.t('record.toolComponents'), 'tool_components', text(record.tool_components)],
    [w.t('record.verificationResult'), 'verification_result', text(record.verification_result)],
    [w.t('record.certificateStatus'), 'certificate_status', text(record.certificate_status)],
  ];
}

type Entry = Readonly<Record<string, unknown>>;

function isEntry(value: unknown): value is Entry {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** First present value among `keys`: fingerprint field names beyond model/serial are not fixed (spec 2). */
function pick(entry: Entry, keys: readonly string[]): unknown {
  for (const key of keys) if (entry[key] !== undefined && entry[key] !== null) return entry[key];
  return undefined;
}

/** The storage entries of a fingerprint, tolerating a malformed section. */
export function storageEntries(fingerprint: Fingerprint | null): Entry[] {
  const storage: unknown = fingerprint?.storage;
  return Array.isArray(storage) ? storage.filter(isEntry) : [];
}

const normalizeSerial = (s: unknown) => (typeof s === 'string' ? s.trim().toUpperCase() : '');

/** The fingerprint's entry for the erased drive, matched by serial as the wipe listing does (spec 4.5). */
export function erasedDriveEntry(fingerprint: Fingerprint | null, driveSerial: string | null | undefined): Entry | null {
  const serial = normalizeSerial(driveSerial);
  if (!serial) return null;
  return storageEntries(fingerprint).find((e) => normalizeSerial(e.serial) === serial) ?? null;
}

/** An entry's exact size in bytes, when the device reported one (field names are open, spec 2). */
function entryBytes(e: Entry): number | null {
  const size = pick(e, ['size_bytes', 'capacity_bytes', 'size']);
  return typeof size === 'number' && Number.isSafeInteger(size) && size >= 0 ? size : null;
}

/** The erased drive's exact byte count from the source machine's fingerprint, if it was reported. */
export function erasedDriveBytes(fingerprint: Fingerprint | null, driveSerial: string | null | undefined): number | null {
  const entry = erasedDriveEntry(fingerprint, driveSerial);
  return entry ? entryBytes(entry) : null;
}

/** `[model, serial, size, type]` per drive of the source machine. */
export function storageRows(fingerprint: Fingerprint | null, erasedSerial: string | null, w: Wording = ENGLISH): string[][] {
  return storageEntries(fingerprint).map((e) => {
    const size = pick(e, ['size_bytes', 'capacity_bytes', 'size']);
    const bytes = entryBytes(e);
    const gb = pick(e, ['capacity_gb', 'size_gb']);
    const erased = erasedSerial !== null && normalizeSerial(e.serial) === normalizeSerial(erasedSerial);
    return [
      formatUnknown(e.model, w) ?? '',
      `${formatUnknown(e.serial, w) ?? ''}${erased ? `  ${w.t('report.erased')}` : ''}`,
      // Decimal units, as the drive label and the certificate print them, with the exact count.
      (bytes !== null ? formatDriveBytes(bytes, w) : typeof gb === 'number' ? formatCapacityGb(gb, w) : formatUnknown(size ?? gb, w)) ?? '',
      formatUnknown(pick(e, ['media_type', 'type', 'kind', 'transport', 'interface']), w) ?? '',
    ];
  });
}

const SMART_KEY = /smart|power_on|wear|realloc|temperature|health|percentage_used|media_errors|pending|spare|crc|unsafe/i;

/**
 * SMART figures of the erased drive as `[attribute, value]`: a nested `smart` object when the
 * engine sends one (flattened one level), otherwise the entry's SMART-looking top-level keys.
 */
export function smartRows(entry: Entry | null, w: Wording = ENGLISH): [string, string][] {
  if (!entry) return [];
  const rows: [string, string][] = [];
  const add = (key: string, value: unknown) => {
    if (isEntry(value)) for (const [k, v] of Object.entries(value)) add(`${key} › ${k}`, v);
    else rows.push([titleize(key) ?? key, formatUnknown(value, w) ?? '—']);
  };
  const smart = entry.smart;
  if (isEntry(smart)) for (const [k, v] of Object.entries(smart)) add(k, v);
  else for (const [k, v] of Object.entries(entry)) if (SMART_KEY.test(k)) add(k, v);
  return rows;
}

/** `[test, status, detail]` for every hardware test wire id, in the spec's order. */
export function testRows(tests: TestSnapshot | null, w: Wording = ENGLISH): string[][] {
  return TEST_WIRE_IDS.map((id) => {
    const result = tests?.[id];
    return [w.t(`test.${id}`), result ? (titleize(result.status) ?? result.status) : w.t('report.notReported'), result?.detail ?? ''];
  });
}
