import type { Clock } from '../adapters/clock.js';
import type { SqlDatabase } from '../adapters/sql/database.js';
import { createOutboundClient, type OutboundClient, type Resolve } from '../adapters/outbound-http.js';
import type { OutboundPolicy } from '../domain/webhooks/ssrf.js';
import { webhookEventStore, webhookStore } from '../adapters/db/webhook-store.js';
import { createWebhookEvents, type WebhookEvents } from '../domain/webhooks/events.js';
import type { WebhookManageDeps } from '../domain/webhooks/manage.js';
import { productionPolicy, type DeliveryPolicy } from '../domain/webhooks/policy.js';
import { startWebhookWorker, type WebhookWorker, type WebhookWorkerDeps } from './webhook-worker.js';

/** Everything webhooks need in one process: the outbox writer, management ports and the worker. */
export interface WebhookRuntime {
  /** The outbox writer: DeviceDeps.events and the certificate job's onCertificateGenerated. */
  events: WebhookEvents;
  /** Ports of the /app/api/webhooks routes and the admin CLI. */
  manage: WebhookManageDeps;
  policy: DeliveryPolicy;
  /** The process's one outbound client (SSRF guard at connect time): deliveries, pings, Push. */
  client: OutboundClient;
  /** Starts this process's delivery worker (idempotent); events committed here (on PostgreSQL, by any process) wake it. */
  startWorker(options?: Pick<WebhookWorkerDeps, 'concurrency' | 'leaseMs' | 'pollMs' | 'log'>): WebhookWorker;
  /** Stops the worker only (recording attempts in flight); `startWorker` may start a new one. */
  stopWorker(): Promise<void>;
  /** Cuts the worker's attempts in flight short, handing their deliveries back (see WebhookWorker.abort). */
  abortWorker(): void;
  /** Stops the worker and closes the transport, for good. */
  stop(): Promise<void>;
}

/**
 * Wires webhooks from configuration: the production policy (8 attempts over ~90 minutes, scaled
 * by WEBHOOK_RETRY_BASE_MS), the guarded outbound client (WEBHOOK_ALLOW_HTTP and
 * WEBHOOK_ALLOW_LOOPBACK widen only the scheme and the loopback range) and the outbox writer,
 * whose commits wake the in-process worker.
 */
export function createWebhookRuntime(input: {
  db: SqlDatabase;
  clock: Clock;
  publicBaseUrl: string;
  outbound: OutboundPolicy;
  retryBaseMs?: number | undefined;
  /** WEBHOOK_SECRET_ROLLOVER_HOURS in ms; default 24 h. */
  secretRolloverMs?: number | undefined;
  /** WEBHOOK_LEDGER_RETENTION_DAYS in ms; default 30 days. */
  ledgerRetentionMs?: number | undefined;
  /** Test seam: the DNS the SSRF guard consults. */
  resolve?: Resolve | undefined;
}): WebhookRuntime {
  const policy = productionPolicy(input.retryBaseMs);
  const sender = createOutboundClient({ ...input.outbound, timeoutMs: policy.timeoutMs, resolve: input.resolve });
  let worker: WebhookWorker | undefined;
  /** The worker stopWorker() is waiting for, so abortWorker() can still cut it short. */
  let stopping: WebhookWorker | undefined;
  const onDue = () => worker?.wake();
  // The outbox writer runs inside the device transaction. On SQLite a wake from there is in time
  // (the worker's transaction queues behind it); on PostgreSQL the worker would look before the
  // commit, so there the NOTIFY the transaction sends wakes every worker once it committed.
  const wakeFromOutbox = input.db.dialect === 'sqlite' ? onDue : undefined;
  const events = createWebhookEvents({ clock: input.clock, store: webhookEventStore, publicBaseUrl: input.publicBaseUrl, maxAttempts: policy.maxAttempts, onDue: wakeFromOutbox });
  return {
    events,
    policy,
    client: sender,
    manage: { db: input.db, clock: input.clock, store: webhookStore, outbound: input.outbound, policy, sender, onDue, secretRolloverMs: input.secretRolloverMs },
    startWorker(options = {}) {
      worker ??= startWebhookWorker({ db: input.db, clock: input.clock, sender, policy, retentionMs: input.ledgerRetentionMs, ...options });
      return worker;
    },
    async stopWorker() {
      const running = worker;
      stopping = running ?? stopping;
      worker = undefined;
      await running?.stop();
    },
    abortWorker() {
      (worker ?? stopping)?.abort();
    },
    async stop() {
      await this.stopWorker();
      await sender.close();
    },
  };
}
