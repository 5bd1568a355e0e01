import { readWipeResultSource } from '../../adapters/db/certificate-sources.js';
import { findCertificateByWipeResult } from '../../adapters/db/certificates.js';
import { readWipeJobDetails } from '../../adapters/db/job-details.js';
import { findAssetForEvent } from '../../adapters/db/sandbox/rows.js';
import type { TokenRow } from '../../adapters/db/tokens.js';
import type { SqlRunner } from '../../adapters/sql/database.js';
import type { DeviceEvent } from '../../domain/device/events.js';
import type { SandboxEventType } from '../../adapters/db/sandbox/webhooks.js';
import {
  assetReportedPayload,
  certificateGeneratedPayload,
  driveStalledPayload,
  sessionBlockedPayload,
  sessionReadyPayload,
  testsCompletedPayload,
  wipeReportPayload,
  type Envelope,
  type TokenFacts,
} from '../../domain/webhooks/payloads.js';

/**
 * An event ready to fan out: its type, and its payload for a given envelope (each subscription
 * gets its own `event_id`, spec 6). The payload builders are the cloud's, so the sandbox sends
 * the same shapes; only the sandbox differences of spec 1 are applied here.
 */
export interface PendingEvent {
  eventType: SandboxEventType;
  /** Revision of the resource: 1 for one-shot resources, the event time for repeating ones. */
  revision: number;
  payload(env: Envelope): Record<string, unknown>;
}

const tokenFacts = (token: TokenRow, quotaRemaining: number | null): TokenFacts => ({
  accountId: token.account_public_id,
  licenseTokenId: token.prefix_id,
  product: token.product,
  // Spec 1: the sandbox's operator is the token's user_email (the cloud sends a user name).
  operator: token.user_email,
  tokenStatus: token.status,
  quotaRemaining,
});

/** `wipe_session_completed` with the sandbox's null `certificate_url` / `pdf_url`. */
async function wipeReport(db: SqlRunner, token: TokenRow, wipeResultId: number, now: string): Promise<PendingEvent | undefined> {
  const wipe = await readWipeResultSource(db, wipeResultId);
  if (!wipe) return undefined; // a rolled-back write
  const r = wipe.record;
  const certificate = await findCertificateByWipeResult(db, wipeResultId);
  const jobDetails = await readWipeJobDetails(db, wipeResultId);
  return {
    eventType: 'wipe_session_completed',
    revision: 1,
    payload: (env) =>
      wipeReportPayload(env, {
        id: wipe.public_id, product: token.product, createdAt: now, updatedAt: now, jobId: r.job_id,
        serial: r.drive_serial ?? null, model: r.drive_model ?? null, capacityGb: r.drive_capacity_gb ?? null,
        wipeMethod: r.wipe_method ?? null, technique: r.technique ?? null, wipeStatus: r.wipe_status ?? null,
        startedAt: r.started_at ?? null, completedAt: r.completed_at ?? null,
        certificateStatus: certificate?.status ?? null, certificateUrl: null, pdfUrl: null,
        licenseTokenId: token.prefix_id, operator: token.user_email, jobDetails,
      }),
  };
}

/** `certificate_generated`, inline after the wipe report in the sandbox (spec 1); no documents, so no URLs. */
export async function certificateGenerated(
  db: SqlRunner,
  token: TokenRow,
  wipeResultId: number,
  publicBaseUrl: string,
): Promise<PendingEvent | undefined> {
  const certificate = await findCertificateByWipeResult(db, wipeResultId);
  const wipe = await readWipeResultSource(db, wipeResultId);
  if (!certificate || certificate.status !== 'complete' || !wipe || !certificate.signed_at) return undefined;
  const facts = {
    id: certificate.public_id, accountId: token.account_public_id, certificateNumber: certificate.certificate_number,
    wipeResultId: wipe.public_id, jobId: wipe.record.job_id, driveSerial: wipe.record.drive_serial ?? null,
    driveModel: wipe.record.drive_model ?? null, signedAt: certificate.signed_at, generatedAt: certificate.updated_at,
    jobDetails: await readWipeJobDetails(db, wipeResultId),
  };
  return {
    eventType: 'certificate_generated',
    revision: 1,
    payload: (env) => ({
      ...certificateGeneratedPayload(env, facts, publicBaseUrl),
      certificate_url: null,
      pdf_url: null,
      report_pdf_url: null,
    }),
  };
}

/** The pending event of a device event, read from the rows its write just produced. */
export async function pendingEvent(db: SqlRunner, event: DeviceEvent, now: string, publicBaseUrl: string): Promise<PendingEvent | undefined> {
  const revision = Date.parse(now);
  switch (event.type) {
    case 'wipe_session_ready':
      return { eventType: event.type, revision, payload: (env) => sessionReadyPayload(env, tokenFacts(event.token, event.quotaRemaining), event.jobId) };
    case 'wipe_session_blocked':
      return {
        eventType: event.type,
        revision,
        payload: (env) => sessionBlockedPayload(env, tokenFacts(event.token, event.quotaRemaining), event.phase, event.reason),
      };
    case 'asset_reported':
    case 'hardware_tests_completed': {
      const asset = await findAssetForEvent(db, event.assetId, event.token.account_public_id);
      if (!asset) return undefined;
      return event.type === 'asset_reported'
        ? { eventType: event.type, revision, payload: (env) => assetReportedPayload(env, asset, event.token.prefix_id, publicBaseUrl) }
        : { eventType: event.type, revision, payload: (env) => testsCompletedPayload(env, asset, event.token.prefix_id) };
    }
    case 'wipe_session_completed':
      return wipeReport(db, event.token, event.wipeResultId, now);
    case 'drive_stalled':
      // Repeats per stall of the drive: the event time is its revision, as for the session events.
      return { eventType: event.type, revision, payload: (env) => driveStalledPayload(env, event.token.account_public_id, event.facts, publicBaseUrl) };
    case 'validation_rejected':
      return undefined; // the sandbox has no validation sampling (spec 1's policies)
  }
}
