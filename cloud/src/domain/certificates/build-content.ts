import type { Fingerprint, PrefixedId, TestSnapshot, WipeResultRecord } from '@erasure/shared';
import { driveVendor } from '../wipes/vendor.js';
import { CERTIFICATE_SCHEMA, deriveNistCategory, type CertificateContent, type NistCategory } from './certificate-content.js';
import { erasedDriveEntry, type ErasureReportData } from './report-data.js';
import { cryptoEraseEvidence, methodStandard, VALIDATION_AT_ISSUE } from './rev2-record.js';

/** The tool named on every certificate; its version is the engine that reported the machine. */
export const TOOL_NAME = 'Erasure Engine';

/** The machine the erased drive was found in (spec 4.5 rule 2), as the documents print it. */
export interface CertificateMachine {
  public_id: string;
  manufacturer: string | null;
  model: string | null;
  serial_number: string | null;
  engine_version: string | null;
  fingerprint: Fingerprint | null;
  test_results: TestSnapshot | null;
  notes: string | null;
}

/** What a certificate is built from, as read from the database when it is first signed. */
export interface CertificateInputs {
  certificate: { public_id: string; certificate_number: string };
  wipe: { public_id: string; record: WipeResultRecord };
  accountName: string;
  operator: string | null;
  /** Customer and lot / job reference of the device token that reported the wipe (issue 23). */
  customer?: string | null;
  lotReference?: string | null;
  /** The asset tag given at the kiosk for the wipe's record (issue 31); the token has none. */
  assetTag?: string | null;
  machine: CertificateMachine | null;
  signedAt: string;
  /** `PUBLIC_BASE_URL`, without a trailing slash. */
  publicBaseUrl: string;
  /** SHA-256 of the certificate that will sign the PDFs; null where none are made (sandbox). */
  pdfSignerSha256: string | null;
}

/** The public verify page printed (and QR-coded) on the certificate (spec 4.4). */
export function verifyUrl(publicBaseUrl: string, certificateId: string): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/certificates/${encodeURIComponent(certificateId)}/verify`;
}

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

/** The signed facts of a certificate that come from its wipe result row. */
export interface WipeFacts {
  wipe_result_id: string;
  drive_model: string | null;
  drive_serial: string | null;
  drive_capacity_gb: number | null;
  wipe_method: string | null;
  technique: string | null;
  nist_category: NistCategory;
  passes_completed: number | null;
  started_at: string | null;
  completed_at: string | null;
  verification_hash: string | null;
  verification_result: string | null;
  tool_components: string | null;
  disposition: string | null;
  markings_removed: boolean | null;
}

/**
 * The signed facts that come from the wipe result row alone. The tamper check rebuilds these
 * from the current row and compares them with the signed content: machine and account facts
 * are snapshots that may legitimately change later, the wipe result may not.
 */
export function wipeFacts(wipe: { public_id: string; record: WipeResultRecord }): WipeFacts {
  const r = wipe.record;
  return {
    wipe_result_id: wipe.public_id,
    drive_model: r.drive_model ?? null,
    drive_serial: r.drive_serial ?? null,
    drive_capacity_gb: r.drive_capacity_gb ?? null,
    wipe_method: r.wipe_method ?? null,
    technique: r.technique ?? null,
    nist_category: deriveNistCategory(r.wipe_method, r.technique),
    passes_completed: r.passes_completed ?? null,
    started_at: r.started_at ?? null,
    completed_at: r.completed_at ?? null,
    verification_hash: r.verification_hash ?? null,
    verification_result: r.verification_result ?? null,
    tool_components: r.tool_components ?? null,
    disposition: r.disposition ?? null,
    markings_removed: r.markings_removed ?? null,
  };
}

/** The same facts as {@link wipeFacts}, read back out of signed content. */
export function signedWipeFacts(c: CertificateContent): WipeFacts {
  return {
    wipe_result_id: c.wipe_result_id ?? '',
    drive_model: c.drive.model,
    drive_serial: c.drive.serial,
    drive_capacity_gb: c.drive.capacity_gb,
    wipe_method: c.wipe.method,
    technique: c.wipe.technique,
    nist_category: c.wipe.nist_category,
    passes_completed: c.wipe.passes_completed,
    started_at: c.wipe.started_at,
    completed_at: c.wipe.completed_at,
    verification_hash: c.verification.hash,
    verification_result: c.verification.result,
    tool_components: c.tool.components,
    disposition: c.disposition,
    markings_removed: c.markings_removed,
  };
}

/**
 * Builds the content a certificate signs from its wipe result, account, operator and source
 * machine. Drive maker and media type come from the machine's fingerprint entry for the drive
 * when there is one, else the maker is derived from the model string as the wipes grid does.
 */
export function buildCertificateContent(input: CertificateInputs): CertificateContent {
  const facts = wipeFacts(input.wipe);
  const entry = erasedDriveEntry(input.machine?.fingerprint ?? null, facts.drive_serial);
  const m = input.machine;
  return {
    schema: CERTIFICATE_SCHEMA,
    certificate_id: input.certificate.public_id as PrefixedId<'cert'>,
    certificate_number: input.certificate.certificate_number,
    wipe_result_id: facts.wipe_result_id as PrefixedId<'wr'>,
    account_name: input.accountName,
    customer: input.customer ?? null,
    lot_reference: input.lotReference ?? null,
    asset_tag: input.assetTag ?? null,
    drive: {
      manufacturer: text(entry?.vendor) ?? text(entry?.manufacturer) ?? driveVendor(facts.drive_model),
      model: facts.drive_model,
      serial: facts.drive_serial,
      capacity_gb: facts.drive_capacity_gb,
      media_type: text(entry?.media_type) ?? text(entry?.type),
    },
    wipe: {
      method: facts.wipe_method,
      technique: facts.technique,
      nist_category: facts.nist_category,
      passes_completed: facts.passes_completed,
      started_at: facts.started_at,
      completed_at: facts.completed_at,
      standard: methodStandard(facts.wipe_method),
    },
    tool: { name: TOOL_NAME, version: m?.engine_version ?? null, components: facts.tool_components },
    verification: {
      // The record carries no method field; its hash is defined as SHA-256 over re-read bytes (spec 2).
      method: facts.verification_hash ? 'Read-back, SHA-256 over the re-read bytes' : null,
      result: facts.verification_result,
      hash: facts.verification_hash,
    },
    operator: input.operator,
    source_machine: m
      ? { manufacturer: m.manufacturer, model: m.model, serial: m.serial_number, asset_id: m.public_id as PrefixedId<'asset'> }
      : null,
    disposition: input.wipe.record.disposition ?? null,
    markings_removed: facts.markings_removed,
    signed_at: input.signedAt,
    verify_url: verifyUrl(input.publicBaseUrl, input.certificate.public_id),
    pdf_signer_sha256: input.pdfSignerSha256,
    crypto_erase_evidence: cryptoEraseEvidence(facts.technique, facts.tool_components, facts.verification_result),
    // Signed when the wipe result arrives: no independent validation can have been made yet.
    validation_status: VALIDATION_AT_ISSUE,
  };
}

/** The Erasure Report's data for signed content: the full record, fingerprint, tests and notes. */
export function buildReportData(
  content: CertificateContent,
  signature: string,
  input: Pick<CertificateInputs, 'wipe' | 'machine'>,
): ErasureReportData {
  return {
    certificate: content,
    signature,
    // Printed as "complete": the report is only ever served once the certificate is complete,
    // and a fixed value keeps every render of one certificate byte-identical.
    wipeResult: { ...input.wipe.record, wipe_result_id: input.wipe.public_id, certificate_status: 'complete' },
    fingerprint: input.machine?.fingerprint ?? null,
    tests: input.machine?.test_results ?? null,
    notes: input.machine?.notes ?? null,
  };
}
