import { existsSync } from 'node:fs';
import { concretePort } from './adapters/free-port.js';
import { systemClock } from './adapters/clock.js';
import { helpAnswer } from '@erasure/shared';
import { parseArgs } from './cli/args.js';
import { CLOUD_HELP } from './cli/help.js';
import { UsageError } from './cli/admin.js';
import { adminCommand } from './cli/admin-command.js';
import { missingDatabaseMessage } from './cli/verify-pdf-args.js';
import { keygen } from './cli/keygen.js';
import { bootImagesIn } from './adapters/boot-images.js';
import { loadConfig, ConfigError } from './config.js';
import { buildCloudApp } from './http/app.js';
import pino from 'pino';
import { WHERE_KEYS_ARE, certificatePublicKey, deploymentKeys, leaseMsFromFlags, loadCertificateRuntime, rotateCertificateKey, verifyPdf, type CertificateRuntime } from './cli/certificates.js';
import { createWebhookRuntime, type WebhookRuntime } from './jobs/webhook-runtime.js';
import { startDeploymentLotExportWorker } from './jobs/lot-export-worker.js';
import type { WorkerLog } from './jobs/certificate-worker.js';
import { graceMsOf, stopWorkers, type ShutdownLog, type Stoppable } from './jobs/shutdown.js';
import type { CloudConfig } from './config.js';
import type { SqlDatabase } from './adapters/sql/database.js';

/** Webhooks of this process (outbox, routes, delivery worker) from the configuration. */
const webhookRuntime = (config: CloudConfig, db: SqlDatabase) =>
  createWebhookRuntime({
    db,
    clock: systemClock,
    publicBaseUrl: config.publicBaseUrl,
    outbound: config.outbound,
    retryBaseMs: config.WEBHOOK_RETRY_BASE_MS,
    secretRolloverMs: config.webhookSecretRolloverMs,
    ledgerRetentionMs: config.webhookLedgerRetentionMs,
  });
import { serveSandbox } from './sandbox/serve.js';
import { copyToPostgresCommand, migrateCommand } from './cli/store.js';
import { openStore, storeConfig } from './adapters/sql/open-store.js';

/** Lot exports too big for one request (issue 31 item 2), made beside the certificates. */
const lotExportWorker = (config: CloudConfig, db: SqlDatabase, certificates: CertificateRuntime, log: WorkerLog) =>
  startDeploymentLotExportWorker({ db, clock: systemClock, store: certificates.store, pdfSigning: certificates.routes.pdfSigning, publicBaseUrl: config.publicBaseUrl, log });

/** The webhook delivery worker as a {@link Stoppable}. */
const deliveryWorker = (webhooks: WebhookRuntime): Stoppable => ({ stop: () => webhooks.stopWorker(), abort: () => webhooks.abortWorker() });

/**
 * The hard end of a shutdown: a process that is somehow still running `timeoutMs` after the
 * signal (a disk or a database that stopped answering) exits anyway, non-zero. What it held is
 * handed over by its leases. Unref'd: it never keeps a finished process alive.
 */
function exitNoLaterThan(timeoutMs: number, log: ShutdownLog): void {
  setTimeout(() => {
    log.error({ timeoutMs }, 'shutdown: still running at SHUTDOWN_TIMEOUT_SECONDS, exiting; leases hand over what was held');
    process.exit(1);
  }, timeoutMs).unref();
}

/**
 * The cloud's store: PostgreSQL when DATABASE_URL names one (any number of instances and workers
 * share it), else `DATA_DIR/cloud.sqlite`; migrated on open, so a fresh database just works.
 */
const openCloudStore = (config: CloudConfig): Promise<SqlDatabase> => openStore(storeConfig(process.env, config.DATA_DIR));

/**
 * As {@link withStore}, for commands that only read a deployment's data: a SQLite file that is not
 * there is an error that says where it was looked for, never a fresh empty database.
 */
async function withExistingStore<T>(work: (db: SqlDatabase, config: CloudConfig) => Promise<T>): Promise<T> {
  const config = loadConfig(process.env);
  const store = storeConfig(process.env, config.DATA_DIR);
  if (store.kind === 'sqlite' && !existsSync(store.path)) {
    throw new UsageError(missingDatabaseMessage(store.path, config.DATA_DIR, WHERE_KEYS_ARE, existsSync));
  }
  return withStore(work);
}

/** Runs a one-shot command on the configured store, closing it after. */
async function withStore<T>(work: (db: SqlDatabase, config: CloudConfig) => Promise<T>): Promise<T> {
  const config = loadConfig(process.env);
  const db = await openCloudStore(config);
  try {
    return await work(db, config);
  } finally {
    await db.close();
  }
}

function print(value: unknown, json: boolean): void {
  if (json) process.stdout.write(`${JSON.stringify(value)}\n`);
  else process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/**
 * Certificates carry their verify URL (and QR code) under the public base URL, so a cloud that
 * falls back to its listening address issues links customers cannot open. Said at start and on
 * every page, rather than discovered on a customer's phone.
 */
function publicUrlWarning(config: CloudConfig): string[] {
  if (config.PUBLIC_BASE_URL) return [];
  return [
    `PUBLIC_BASE_URL is not set: certificates and their QR codes link to ${config.publicBaseUrl}, which customers cannot open. Set PUBLIC_BASE_URL to this cloud's public address and restart.`,
  ];
}

async function serve(): Promise<void> {
  const env = { ...process.env };
  env.PORT = String(await concretePort(env.HOST || '127.0.0.1', Number(env.PORT || 3000)));
  const config = loadConfig(env);
  const db = await openCloudStore(config);
  const certificates = await loadCertificateRuntime(config, db);
  const webhooks = webhookRuntime(config, db);
  const app = buildCloudApp({
    db,
    clock: systemClock,
    internalApiSecret: config.INTERNAL_API_SECRET,
    deploymentWarnings: publicUrlWarning(config),
    logger: { level: 'info' },
    deviceTokenPrivateKey: config.DEVICE_TOKEN_PRIVATE_KEY,
    images: bootImagesIn(config.imagesDir),
    gatewayUrl: config.PUBLIC_GATEWAY_URL,
    tokenDefaults: config.tokenDefaults,
    downloadLimits: config.downloadLimits,
    downloadStallSeconds: config.IMAGE_DOWNLOAD_STALL_SECONDS,
    publicBaseUrl: config.publicBaseUrl,
    outbound: config.outbound,
    certificates: certificates.routes,
    webhooks,
    maxDrivesPerMachine: config.MAX_DRIVES_PER_MACHINE,
    wipesCsvMaxRows: config.WIPES_CSV_MAX_ROWS,
    floorView: config.FLOOR_VIEW !== 'off',
    trustedProxy: config.trustedProxy,
  });
  if (!config.INTERNAL_API_SECRET) app.log.warn('INTERNAL_API_SECRET is not set: /internal/* answers 503');
  for (const warning of publicUrlWarning(config)) app.log.warn(warning);
  // The in-process certificate worker (ARCHITECTURE #5); `erasure-cloud worker` adds more.
  // Started before listening, so missing fonts stop the process before it takes traffic.
  const worker = await certificates.startWorker({
    db,
    clock: systemClock,
    log: app.log,
    inServer: true,
    onCertificateGenerated: (tx, certificate) => webhooks.events.certificateGenerated(tx, certificate),
  });
  // The in-process webhook delivery worker; `erasure-cloud worker` runs more beside it.
  webhooks.startWorker({ log: app.log });
  const lotExports = lotExportWorker(config, db, certificates, app.log);
  const address = await app.listen({ host: config.HOST, port: config.PORT });
  process.stdout.write(`erasure-cloud listening on ${address}\n`);
  // SIGTERM: stop claiming, finish or hand back the work in flight, exit within SHUTDOWN_TIMEOUT_SECONDS.
  const stop = async () => {
    exitNoLaterThan(config.shutdownTimeoutMs, app.log);
    await stopWorkers([worker, deliveryWorker(webhooks), lotExports], { graceMs: graceMsOf(config.shutdownTimeoutMs), log: app.log });
    await webhooks.stop();
    await app.close();
    await db.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/**
 * `erasure-cloud worker`: certificate jobs and webhook deliveries, no HTTP. On SIGINT/SIGTERM it
 * claims nothing more, finishes or hands back what it holds and exits within SHUTDOWN_TIMEOUT_SECONDS.
 */
async function runWorker(leaseMs: number | undefined): Promise<void> {
  const config = loadConfig(process.env);
  const db = await openCloudStore(config);
  const log = pino({ name: 'erasure-cloud-worker' }, pino.destination(2));
  const webhooks = webhookRuntime(config, db);
  const certificates = await loadCertificateRuntime(config, db);
  const worker = await certificates.startWorker({
    db,
    clock: systemClock,
    log,
    ...(leaseMs ? { leaseMs } : {}),
    onCertificateGenerated: (tx, certificate) => webhooks.events.certificateGenerated(tx, certificate),
  });
  webhooks.startWorker({ log });
  const lotExports = lotExportWorker(config, db, certificates, log);
  process.stdout.write(`erasure-cloud worker running (pid ${process.pid})\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  exitNoLaterThan(config.shutdownTimeoutMs, log);
  await stopWorkers([worker, deliveryWorker(webhooks), lotExports], { graceMs: graceMsOf(config.shutdownTimeoutMs), log });
  await webhooks.stop();
  await db.close();
  // Exit now rather than when the last handle goes: nothing is left to wait for.
  process.exit(0);
}

async function main(argv: string[]): Promise<number> {
  // Help and unknown commands are answered before anything opens a database or a port.
  const help = helpAnswer(CLOUD_HELP, argv);
  if (help) {
    process[help.stream].write(`${help.text}\n`);
    return help.exitCode;
  }
  const { positionals, flags } = parseArgs(argv);
  const [command, sub] = positionals;
  const json = flags.json === true;
  switch (command) {
    case 'serve':
      await serve();
      return 0;
    case 'sandbox':
      await serveSandbox(process.env);
      return 0;
    case 'keygen':
      print(keygen(), json);
      return 0;
    case 'worker':
      await runWorker(leaseMsFromFlags(flags));
      return 0;
    case 'certificate-public-key':
      print(await withStore((db, config) => certificatePublicKey(config, db, flags)), json);
      return 0;
    case 'rotate-certificate-key':
      print(await withStore((db, config) => rotateCertificateKey(config, db)), json);
      return 0;
    case 'verify-pdf': {
      const verdict = await verifyPdf(sub, flags, (check) =>
        withExistingStore(async (db, config) => {
          const keys = await deploymentKeys(config, db);
          return check({ publicKeys: keys.publicKeys, pdfCertificateOnRecord: keys.pdfCertificateOnRecord });
        }),
      );
      print(verdict, json);
      return verdict.valid ? 0 : 1;
    }
    case 'admin':
      print(await adminCommand(process.env, sub, flags), json);
      return 0;
    case 'migrate':
      print(await migrateCommand(process.env, loadConfig(process.env)), json);
      return 0;
    case 'copy-to-postgres':
      print(await copyToPostgresCommand(process.env, loadConfig(process.env), flags), json);
      return 0;
    default:
      throw new UsageError(`unknown command ${command}`);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== 0) process.exit(code);
  },
  (error: unknown) => {
    const usage = error instanceof UsageError || error instanceof ConfigError;
    process.stderr.write(`erasure-cloud: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(usage ? 2 : 1);
  },
);
