import type { WebhookEventType } from './types.js';
import type { ValidationRejectedFacts } from '../validation/report.js';
import type { DriveStalledFacts } from '../floor/stalls.js';

/**
 * Event payloads (spec 6; README "Webhooks" documents them for integrators). Plain functions
 * over plain inputs, so the sandbox builds the same bytes. Every payload carries `event_id`
 * (reused on redelivery: deduplicate on it), `event_type`, `created_at` and a per-resource
 * `revision` that grows with each event about the resource (apply an event only when its
 * revision is above the last one applied: arrival order is not guaranteed).
 */
export interface Envelope {
  event_id: string;
  event_type: WebhookEventType;
  created_at: string;
  revision: number;
}

/** The part common to the five payloads the spec leaves open. */
const head = (env: Envelope, accountId: string) => ({
  event_id: env.event_id,
  event_type: env.event_type,
  created_at: env.created_at,
  account_id: accountId,
  revision: env.revision,
});

/** The device and its token, as ready/blocked events describe the session's owner. */
export interface TokenFacts {
  accountId: string;
  licenseTokenId: string;
  product: string;
  operator: string | null;
  tokenStatus: string;
  quotaRemaining: number | null;
}

/** `wipe_session_ready`: a check-in was allowed; revision is the license token's. */
export function sessionReadyPayload(env: Envelope, token: TokenFacts, jobId: string) {
  return {
    ...head(env, token.accountId),
    type: 'wipe_session',
    license_token_id: token.licenseTokenId,
    product: token.product,
    operator: token.operator,
    phase: 'checkin',
    allow: true,
    job_id: jobId,
    token_status: token.tokenStatus,
    quota_remaining: token.quotaRemaining,
  };
}

/** `wipe_session_blocked`: verify (`phase: verify`) or check-in (`phase: checkin`) denied. */
export function sessionBlockedPayload(env: Envelope, token: TokenFacts, phase: 'verify' | 'checkin', reason: string) {
  return {
    ...head(env, token.accountId),
    type: 'wipe_session',
    license_token_id: token.licenseTokenId,
    product: token.product,
    operator: token.operator,
    phase,
    allow: false,
    reason,
    token_status: token.tokenStatus,
    quota_remaining: token.quotaRemaining,
  };
}

/** The asset columns events carry (spec 2 asset summary names). */
export interface AssetFacts {
  id: string;
  accountId: string;
  recordId: string;
  manufacturer: string | null;
  model: string | null;
  serialNumber: string | null;
  assetTag: string | null;
  cpuModel: string | null;
  memoryTotalBytes: number | null;
  storageSummary: string | null;
  storageSerials: string | null;
  batteryHealthPct: number | null;
  engineVersion: string | null;
  technician: string | null;
  firstSeenAt: string;
  updatedAt: string;
  testResults: Record<string, { status: string; detail?: string }>;
}

/** `asset_reported`: a machine's first boot; the full document is at `asset_url` (public API). */
export function assetReportedPayload(env: Envelope, asset: AssetFacts, licenseTokenId: string, publicBaseUrl: string) {
  return {
    ...head(env, asset.accountId),
    type: 'asset',
    id: asset.id,
    record_id: asset.recordId,
    license_token_id: licenseTokenId,
    manufacturer: asset.manufacturer,
    model: asset.model,
    serial_number: asset.serialNumber,
    asset_tag: asset.assetTag,
    cpu_model: asset.cpuModel,
    memory_total_bytes: asset.memoryTotalBytes,
    storage_summary: asset.storageSummary,
    storage_serials: asset.storageSerials,
    battery_health_pct: asset.batteryHealthPct,
    engine_version: asset.engineVersion,
    technician: asset.technician,
    first_seen_at: asset.firstSeenAt,
    updated_at: asset.updatedAt,
    asset_url: `${publicBaseUrl}/api/v1/assets/${asset.id}`,
  };
}

/** `hardware_tests_completed`: the full snapshot (it replaces the previous one) and its tally. */
export function testsCompletedPayload(env: Envelope, asset: AssetFacts, licenseTokenId: string) {
  const summary: Record<string, number> = { passed: 0, failed: 0, not_started: 0, not_applicable: 0, detected: 0 };
  for (const result of Object.values(asset.testResults)) summary[result.status] = (summary[result.status] ?? 0) + 1;
  return {
    ...head(env, asset.accountId),
    type: 'asset_tests',
    id: asset.id,
    record_id: asset.recordId,
    license_token_id: licenseTokenId,
    serial_number: asset.serialNumber,
    model: asset.model,
    tests: asset.testResults,
    summary,
    all_passed: summary.failed === 0 && summary.not_started === 0 && Object.keys(asset.testResults).length > 0,
    updated_at: asset.updatedAt,
  };
}

/** A stored wipe result as the `wipe_report` payload needs it. */
export interface WipeFacts {
  id: string;
  product: string;
  createdAt: string;
  updatedAt: string;
  jobId: string;
  serial: string | null;
  model: string | null;
  capacityGb: number | null;
  wipeMethod: string | null;
  technique: string | null;
  wipeStatus: string | null;
  startedAt: string | null;
  completedAt: string | null;
  certificateStatus: string | null;
  certificateUrl: string | null;
  pdfUrl: string | null;
  licenseTokenId: string;
  operator: string | null;
  /** Issue 31 item 6: the job details typed at the kiosk, else the token's customer and lot; null when none. */
  jobDetails: WipeJobDetails;
}

/** Customer, lot / job reference and asset tag of one wipe (issue 31 item 6), as the payloads name them. */
export interface WipeJobDetails {
  customer: string | null;
  lotReference: string | null;
  assetTag: string | null;
}

const jobDetailFields = (details: WipeJobDetails) => ({
  customer: details.customer,
  lot_reference: details.lotReference,
  asset_tag: details.assetTag,
});

/** `NIST 800-88 R2 Purge` → `nist_800_88_r2_purge`. */
export const slugOf = (text: string): string => text.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '');

const titleize = (text: string) => text.replace(/_/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());

/** The wipes grid's badge words (spec 4.5 rule 1): Pass, Fail, or the titleized status. */
const resultWord = (status: string) => (status === 'completed' ? 'Pass' : status === 'failed' ? 'Fail' : titleize(status));

/**
 * `wipe_session_completed` (type `wipe_report`): the fields of spec 6, in its order, then the
 * job details of issue 31 item 6 appended (spec 6 leaves further fields open).
 * Capacity is decimal (1 GB = 10⁹ bytes), as drives are labelled.
 */
export function wipeReportPayload(env: Envelope, wipe: WipeFacts) {
  const status = wipe.wipeStatus ?? 'completed';
  return {
    event_id: env.event_id,
    event_type: env.event_type,
    id: wipe.id,
    type: 'wipe_report',
    product: wipe.product,
    created_at: env.created_at,
    updated_at: wipe.updatedAt,
    revision: env.revision,
    job_id: wipe.jobId,
    serial: wipe.serial,
    model: wipe.model,
    capacity_bytes: wipe.capacityGb === null ? null : wipe.capacityGb * 1_000_000_000,
    capacity_display: wipe.capacityGb === null ? null : `${wipe.capacityGb} GB`,
    erase_algorithm: wipe.wipeMethod === null ? null : slugOf(wipe.wipeMethod),
    erase_algorithm_display: wipe.wipeMethod,
    erase_technique: wipe.technique,
    status_display: titleize(status),
    erase_result_display: resultWord(status),
    erase_start_time: wipe.startedAt,
    erase_finish_time: wipe.completedAt,
    certificate_status: wipe.certificateStatus,
    certificate_url: wipe.certificateUrl,
    pdf_url: wipe.pdfUrl,
    license_token_id: wipe.licenseTokenId,
    operator: wipe.operator,
    ...jobDetailFields(wipe.jobDetails),
  };
}

/** A generated certificate as `certificate_generated` describes it. */
export interface CertificateFacts {
  id: string;
  accountId: string;
  certificateNumber: string;
  wipeResultId: string;
  jobId: string;
  driveSerial: string | null;
  driveModel: string | null;
  signedAt: string;
  generatedAt: string;
  /** Issue 31 item 6: the certified wipe's job details, as on its wipe report. */
  jobDetails: WipeJobDetails;
}

/**
 * `certificate_generated`: both PDFs are stored. The document URLs are the cloud's
 * session-guarded downloads (302 to a 5-minute presigned link); `verify_url` is public.
 */
export function certificateGeneratedPayload(env: Envelope, cert: CertificateFacts, publicBaseUrl: string) {
  const url = `${publicBaseUrl}/certificates/${cert.id}`;
  return {
    ...head(env, cert.accountId),
    type: 'certificate',
    id: cert.id,
    certificate_number: cert.certificateNumber,
    wipe_result_id: cert.wipeResultId,
    job_id: cert.jobId,
    drive_serial: cert.driveSerial,
    drive_model: cert.driveModel,
    certificate_status: 'complete',
    certificate_url: url,
    pdf_url: url,
    report_pdf_url: `${url}?document=report`,
    verify_url: `${url}/verify`,
    signed_at: cert.signedAt,
    generated_at: cert.generatedAt,
    ...jobDetailFields(cert.jobDetails),
  };
}

/**
 * `validation_rejected` (beyond the spec, issue 29): a drive picked from a lot failed its
 * independent validation. The wipe result now reads `validation: rejected`, `disposition:
 * review`, and the certificate's verify page says it is not valid. Revision is the wipe result's.
 */
export function validationRejectedPayload(env: Envelope, accountId: string, facts: ValidationRejectedFacts, publicBaseUrl: string) {
  return {
    ...head(env, accountId),
    type: 'validation',
    id: facts.wipeResultId,
    wipe_result_id: facts.wipeResultId,
    certificate_id: facts.certificateId,
    certificate_number: facts.certificateNumber,
    drive_serial: facts.driveSerial,
    lot_id: facts.lotId,
    validation: 'rejected',
    disposition: 'review',
    reason: facts.reason,
    findings: facts.findings,
    validated_at: facts.validatedAt,
    verify_url: `${publicBaseUrl}/certificates/${facts.certificateId}/verify`,
  };
}

/**
 * `drive_stalled` (beyond the spec, issue 32): a drive on the floor made no byte progress for the
 * account's stall time while it should (an overwrite, a read-back, a drive command the host
 * times). One event per stall: a drive that moves and stops again sends another. The resource is
 * the drive on its machine (`machine_id:device`).
 */
export function driveStalledPayload(env: Envelope, accountId: string, facts: DriveStalledFacts, publicBaseUrl: string) {
  const d = facts.drive;
  return {
    ...head(env, accountId),
    type: 'floor_drive',
    id: `${facts.machineId}:${d.device}`,
    machine_id: facts.machineId,
    machine_name: facts.machineName,
    site: facts.site,
    device: d.device,
    bay: d.bay ?? null,
    model: d.model ?? null,
    serial: d.serial ?? null,
    stage: d.stage,
    bytes_done: d.bytes_done,
    bytes_total: d.bytes_total,
    stalled_since: facts.since,
    lot_reference: d.lot_reference ?? null,
    floor_url: `${publicBaseUrl}/floor`,
  };
}
