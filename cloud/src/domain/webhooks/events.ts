import { newUuid } from '@erasure/shared';
import type { Clock } from '../clock.js';
import type { SqlRunner } from '../../adapters/sql/database.js';
import type { TokenRow } from '../../adapters/db/tokens.js';
import type * as WebhookEventsDb from '../../adapters/db/webhook-events.js';
import {
  assetReportedPayload,
  certificateGeneratedPayload,
  sessionBlockedPayload,
  sessionReadyPayload,
  testsCompletedPayload,
  validationRejectedPayload, driveStalledPayload,
  wipeReportPayload,
  type Envelope,
  type TokenFacts,
} from './payloads.js';
import { PRODUCTION_MAX_ATTEMPTS } from './policy.js';
import type { WebhookEventType } from './types.js';
import type { DeviceEvent, DeviceEvents } from '../device/events.js';

/**
 * The outbox writer: the device domain's event port plus the certificate job's hook. Every call
 * must happen inside the transaction of the state change it reports (transactional outbox), on
 * that transaction's handle `db`, awaited: it only writes rows, never does network I/O, and a
 * rejection rolls the state change back with it.
 */
export interface WebhookEvents extends DeviceEvents {
  /** The certificate job's `onCertificateGenerated` hook (called inside its completing transaction). */
  certificateGenerated(db: SqlRunner, certificate: { id: string; account_id: number; signed_at: string; generated_at: string }): Promise<void>;
}

/** The outbox's repository functions (adapters/db/webhook-events.ts). */
export type WebhookEventStore = Pick<
  typeof WebhookEventsDb,
  'hasSubscriptions' | 'insertEventWithDeliveries' | 'nextRevision' | 'readAssetFacts' | 'readCertificateFacts' | 'readWipeFacts'
>;

/** The writer's fixed ports; the database is the caller's transaction, given with each event. */
export interface WebhookEventDeps {
  clock: Clock;
  store: WebhookEventStore;
  /** PUBLIC_BASE_URL, for certificate and asset links in payloads. */
  publicBaseUrl: string;
  /** Attempts in a delivery's first round (the delivery policy's). */
  maxAttempts?: number;
  /**
   * Called after deliveries became due, so an idle in-process worker starts at once. It runs
   * inside the caller's transaction, before the commit: only a worker whose claim waits for that
   * commit may use it (SQLite's); on PostgreSQL the transaction's NOTIFY wakes workers after it.
   */
  onDue?: () => void;
}

const tokenFacts = (token: TokenRow, quotaRemaining: number | null): TokenFacts => ({
  accountId: token.account_public_id,
  licenseTokenId: token.prefix_id,
  product: token.product,
  operator: token.user_name,
  tokenStatus: token.status,
  quotaRemaining,
});

/** The outbox writer of spec 6's six events. */
export function createWebhookEvents(deps: WebhookEventDeps): WebhookEvents {
  const base = deps.publicBaseUrl.replace(/\/+$/, '');
  const maxAttempts = deps.maxAttempts ?? PRODUCTION_MAX_ATTEMPTS;

  /**
   * Writes one event when anyone subscribes to it: an account without subscriptions pays one
   * indexed lookup and stores nothing. The payload is serialised once; every delivery sends
   * and signs exactly these bytes.
   */
  const emit = async (
    db: SqlRunner,
    accountId: number,
    eventType: WebhookEventType,
    describe: () => Promise<{ resourceId: string; build: (env: Envelope) => object }>,
  ): Promise<void> => {
    if (!(await deps.store.hasSubscriptions(db, accountId, eventType))) return;
    const { resourceId, build } = await describe();
    const now = deps.clock.now().toISOString();
    const revision = await deps.store.nextRevision(db, resourceId);
    const eventId = newUuid();
    const payload = JSON.stringify(build({ event_id: eventId, event_type: eventType, created_at: now, revision }));
    const due = await deps.store.insertEventWithDeliveries(db, { eventId, accountId, eventType, resourceId, revision, payload, maxAttempts, now });
    if (due > 0) deps.onDue?.();
  };

  const asset = async (db: SqlRunner, assetId: number) => {
    const facts = await deps.store.readAssetFacts(db, assetId);
    if (!facts) throw new Error(`asset ${assetId} vanished inside its own transaction`);
    return facts;
  };

  const fire = (db: SqlRunner, event: DeviceEvent): Promise<void> => {
    const { token } = event;
    switch (event.type) {
      case 'wipe_session_ready':
        return emit(db, token.account_id, event.type, async () => ({
          resourceId: token.prefix_id,
          build: (env) => sessionReadyPayload(env, tokenFacts(token, event.quotaRemaining), event.jobId),
        }));
      case 'wipe_session_blocked':
        return emit(db, token.account_id, event.type, async () => ({
          resourceId: token.prefix_id,
          build: (env) => sessionBlockedPayload(env, tokenFacts(token, event.quotaRemaining), event.phase, event.reason),
        }));
      case 'asset_reported':
        return emit(db, token.account_id, event.type, async () => {
          const facts = await asset(db, event.assetId);
          return { resourceId: facts.id, build: (env) => assetReportedPayload(env, facts, token.prefix_id, base) };
        });
      case 'hardware_tests_completed':
        return emit(db, token.account_id, event.type, async () => {
          const facts = await asset(db, event.assetId);
          return { resourceId: facts.id, build: (env) => testsCompletedPayload(env, facts, token.prefix_id) };
        });
      case 'wipe_session_completed':
        return emit(db, token.account_id, event.type, async () => {
          const wipe = await deps.store.readWipeFacts(db, event.wipeResultId, base);
          if (!wipe) throw new Error(`wipe result ${event.wipeResultId} vanished inside its own transaction`);
          return { resourceId: wipe.id, build: (env) => wipeReportPayload(env, wipe) };
        });
      case 'validation_rejected':
        return emit(db, token.account_id, event.type, async () => ({
          resourceId: event.facts.wipeResultId,
          build: (env) => validationRejectedPayload(env, token.account_public_id, event.facts, base),
        }));
      case 'drive_stalled':
        return emit(db, token.account_id, event.type, async () => ({
          resourceId: `${event.facts.machineId}:${event.facts.drive.device}`,
          build: (env) => driveStalledPayload(env, token.account_public_id, event.facts, base),
        }));
      default:
        return assertNever(event);
    }
  };

  return {
    emit: fire,
    certificateGenerated(db, certificate) {
      return emit(db, certificate.account_id, 'certificate_generated', async () => {
        const facts = await deps.store.readCertificateFacts(db, certificate.id);
        if (!facts) throw new Error(`certificate ${certificate.id} vanished inside its own transaction`);
        const cert = { ...facts, signedAt: certificate.signed_at, generatedAt: certificate.generated_at };
        return { resourceId: cert.id, build: (env) => certificateGeneratedPayload(env, cert, base) };
      });
    },
  };
}

function assertNever(value: never): never {
  throw new Error(`unhandled event ${JSON.stringify(value)}`);
}
