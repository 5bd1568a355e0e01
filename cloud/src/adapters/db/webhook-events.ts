import type { AssetFacts, CertificateFacts, WipeFacts } from '../../domain/webhooks/payloads.js';
import type { WebhookEventType } from '../../domain/webhooks/types.js';
import type { SqlRunner } from '../sql/database.js';
import { WIPE_JOB_DETAIL_COLUMNS, wipeJobDetailsOf } from './job-details.js';
import { TOKEN_USER_NAME_SQL } from './tokens.js';
import { takesEvent } from './webhook-subscriptions.js';
import { notifyDeliveriesDue } from './webhook-wakeup.js';

/**
 * The outbox side of webhooks: events and their fan-out into the ledger. Every writer here runs
 * inside the caller's transaction, the one that makes the state change the event reports, so an
 * acknowledged device call always has its event and a rolled-back one never does.
 */

/** True when the account has any subscription (enabled or not) to the event type. */
export async function hasSubscriptions(db: SqlRunner, accountId: number, eventType: WebhookEventType): Promise<boolean> {
  const found = await db.one(`SELECT 1 AS found FROM webhook_subscriptions s WHERE s.account_id = @accountId AND ${takesEvent('s', 'eventType')} LIMIT 1`, {
    accountId,
    eventType,
  });
  return found !== undefined;
}

/** The resource's next revision, taken by one upsert … RETURNING (gap-free in commit order). */
export async function nextRevision(db: SqlRunner, resourceId: string): Promise<number> {
  const row = await db.one<{ revision: number }>(
    `INSERT INTO webhook_revisions (resource_id, revision) VALUES (@resourceId, 1)
     ON CONFLICT (resource_id) DO UPDATE SET revision = webhook_revisions.revision + 1
     RETURNING revision`,
    { resourceId },
  );
  return row!.revision;
}

/**
 * Stores the event and inserts one ledger row per subscription of its account and type: due
 * now for enabled subscriptions, `skipped` for disabled ones (re-enabling redelivers those).
 * Returns how many deliveries became due; on PostgreSQL their workers are woken when the caller commits.
 */
export async function insertEventWithDeliveries(
  db: SqlRunner,
  input: {
    eventId: string;
    accountId: number;
    eventType: WebhookEventType;
    resourceId: string;
    revision: number;
    payload: string;
    maxAttempts: number;
    now: string;
  },
): Promise<number> {
  const { id } = (await db.one<{ id: number }>(
    `INSERT INTO webhook_events (event_id, account_id, event_type, resource_id, revision, payload, created_at)
     VALUES (@eventId, @accountId, @eventType, @resourceId, @revision, @payload, @now) RETURNING id`,
    input,
  ))!;
  const fanned = await db.many<{ status: string }>(
    `INSERT INTO webhook_deliveries (subscription_id, event_id, status, attempts, max_attempts, next_attempt_at, created_at, updated_at)
     SELECT s.id, @event, CASE WHEN s.active = 1 THEN 'pending' ELSE 'skipped' END, 0, @max,
            CASE WHEN s.active = 1 THEN @now END, @now, @now
       FROM webhook_subscriptions s
      WHERE s.account_id = @account AND ${takesEvent('s', 'type')}
     ON CONFLICT (subscription_id, event_id) DO NOTHING
     RETURNING status`,
    { event: id, max: input.maxAttempts, now: input.now, account: input.accountId, type: input.eventType },
  );
  const due = fanned.filter((row) => row.status === 'pending').length;
  if (due > 0) await notifyDeliveriesDue(db);
  return due;
}

/** An asset as `asset_reported` and `hardware_tests_completed` describe it. */
export async function readAssetFacts(db: SqlRunner, assetId: number): Promise<AssetFacts | undefined> {
  const row = await db.one<Record<string, unknown>>(
    `SELECT s.public_id AS id, a.public_id AS account_id, s.record_id, s.manufacturer, s.model, s.serial_number,
            s.asset_tag, s.cpu_model, s.memory_total_bytes, s.storage_summary, s.storage_serials,
            s.battery_health_pct, s.engine_version, s.technician, s.first_seen_at, s.updated_at, s.test_results
       FROM assets s JOIN accounts a ON a.id = s.account_id WHERE s.id = @assetId`,
    { assetId },
  );
  if (!row) return undefined;
  return {
    id: row.id as string,
    accountId: row.account_id as string,
    recordId: row.record_id as string,
    manufacturer: row.manufacturer as string | null,
    model: row.model as string | null,
    serialNumber: row.serial_number as string | null,
    assetTag: row.asset_tag as string | null,
    cpuModel: row.cpu_model as string | null,
    memoryTotalBytes: row.memory_total_bytes as number | null,
    storageSummary: row.storage_summary as string | null,
    storageSerials: row.storage_serials as string | null,
    batteryHealthPct: row.battery_health_pct as number | null,
    engineVersion: row.engine_version as string | null,
    technician: row.technician as string | null,
    firstSeenAt: row.first_seen_at as string,
    updatedAt: row.updated_at as string,
    testResults: JSON.parse(row.test_results as string) as AssetFacts['testResults'],
  };
}

/** A stored wipe result with its token and certificate, for the `wipe_report` payload. */
export async function readWipeFacts(db: SqlRunner, wipeResultId: number, publicBaseUrl: string): Promise<WipeFacts | undefined> {
  const row = await db.one<Record<string, string | number | null>>(
    `SELECT w.public_id AS id, t.product, w.created_at, w.updated_at, w.job_id, w.drive_serial, w.drive_model,
            w.drive_capacity_gb, w.wipe_method, w.technique, w.wipe_status, w.started_at, w.completed_at,
            w.certificate_status, c.public_id AS cert_id, c.certificate_key, t.prefix_id AS token_id, ${TOKEN_USER_NAME_SQL} AS user_email,
            ${WIPE_JOB_DETAIL_COLUMNS}
       FROM wipe_results w JOIN license_tokens t ON t.id = w.token_id
       LEFT JOIN certificates c ON c.wipe_result_id = w.id
      WHERE w.id = @wipeResultId`,
    { wipeResultId },
  );
  if (!row) return undefined;
  const certificateUrl = row.cert_id === null ? null : `${publicBaseUrl}/certificates/${String(row.cert_id)}`;
  return {
    id: row.id as string,
    product: row.product as string,
    createdAt: row.created_at as string,
    updatedAt: row.updated_at as string,
    jobId: row.job_id as string,
    serial: row.drive_serial as string | null,
    model: row.drive_model as string | null,
    capacityGb: row.drive_capacity_gb as number | null,
    wipeMethod: row.wipe_method as string | null,
    technique: row.technique as string | null,
    wipeStatus: row.wipe_status as string | null,
    startedAt: row.started_at as string | null,
    completedAt: row.completed_at as string | null,
    certificateStatus: row.certificate_status as string | null,
    certificateUrl,
    // The PDF exists only once the certificate job stored it.
    pdfUrl: certificateUrl !== null && row.certificate_key !== null ? certificateUrl : null,
    licenseTokenId: row.token_id as string,
    operator: row.user_email as string | null,
    jobDetails: wipeJobDetailsOf(row),
  };
}

/** A certificate with its wipe result, for `certificate_generated`. */
export async function readCertificateFacts(db: SqlRunner, certificatePublicId: string): Promise<CertificateFacts | undefined> {
  const row = await db.one<Record<string, string | number | null>>(
    `SELECT c.public_id AS id, a.public_id AS account_public_id, c.certificate_number,
            w.public_id AS wipe_result_id, w.job_id, w.drive_serial, w.drive_model, c.signed_at, c.generated_at,
            ${WIPE_JOB_DETAIL_COLUMNS}
       FROM certificates c JOIN wipe_results w ON w.id = c.wipe_result_id JOIN accounts a ON a.id = c.account_id
       JOIN license_tokens t ON t.id = w.token_id
      WHERE c.public_id = @certificatePublicId`,
    { certificatePublicId },
  );
  if (!row) return undefined;
  return {
    id: row.id as string,
    accountId: row.account_public_id as string,
    certificateNumber: row.certificate_number as string,
    wipeResultId: row.wipe_result_id as string,
    jobId: row.job_id as string,
    driveSerial: row.drive_serial as string | null,
    driveModel: row.drive_model as string | null,
    signedAt: (row.signed_at as string | null) ?? '',
    generatedAt: (row.generated_at as string | null) ?? '',
    jobDetails: wipeJobDetailsOf(row),
  };
}
