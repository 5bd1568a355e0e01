import { concretePort } from './adapters/free-port.js';
import { systemClock } from './adapters/clock.js';
import { parseArgs } from './cli/args.js';
import { runAdmin, UsageError } from './cli/admin.js';
import { keygen } from './cli/keygen.js';
import { bootImagesIn } from './adapters/boot-images.js';
import { loadConfig, ConfigError } from './config.js';
import { buildCloudApp } from './http/app.js';
import pino from 'pino';
import { certificatePublicKey, deploymentKeys, leaseMsFromFlags, loadCertificateRuntime, rotateCertificateKey, verifyPdf } from './cli/certificates.js';
import { createWebhookRuntime } from './jobs/webhook-runtime.js';
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

const USAGE =
  'usage: erasure-cloud serve | sandbox | worker [--lease-seconds N] | keygen [--json] | admin <command> [--flags] [--json]' +
  ' | verify-pdf FILE [--public-key B64] [--json] | certificate-public-key [--all] [--json] | rotate-certificate-key [--json]' +
  ' | migrate [--json] | copy-to-postgres [--from FILE] [--json]';

/**
 * The cloud's store: PostgreSQL when DATABASE_URL names one (any number of instances and workers
 * share it), else `DATA_DIR/cloud.sqlite`; migrated on open, so a fresh database just works.
 */
const openCloudStore = (config: CloudConfig): Promise<SqlDatabase> => openStore(storeConfig(process.env, config.DATA_DIR));

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
    logger: { level: 'info' },
    deviceTokenPrivateKey: config.DEVICE_TOKEN_PRIVATE_KEY,
    images: bootImagesIn(config.imagesDir),
    gatewayUrl: config.PUBLIC_GATEWAY_URL,
    publicBaseUrl: config.publicBaseUrl,
    outbound: config.outbound,
    certificates: certificates.routes,
    webhooks,
  });
  if (!config.INTERNAL_API_SECRET) app.log.warn('INTERNAL_API_SECRET is not set: /internal/* answers 503');
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
  const address = await app.listen({ host: config.HOST, port: config.PORT });
  process.stdout.write(`erasure-cloud listening on ${address}\n`);
  const stop = async () => {
    await worker.stop();
    await webhooks.stop();
    await app.close();
    await db.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/** `erasure-cloud worker`: certificate jobs and webhook deliveries, no HTTP; stops cleanly on SIGINT/SIGTERM. */
async function runWorker(leaseMs: number | undefined): Promise<void> {
  const config = loadConfig(process.env);
  const db = await openCloudStore(config);
  const log = pino({ name: 'erasure-cloud-worker' }, pino.destination(2));
  const webhooks = webhookRuntime(config, db);
  const worker = await (await loadCertificateRuntime(config, db)).startWorker({
    db,
    clock: systemClock,
    log,
    ...(leaseMs ? { leaseMs } : {}),
    onCertificateGenerated: (tx, certificate) => webhooks.events.certificateGenerated(tx, certificate),
  });
  webhooks.startWorker({ log });
  process.stdout.write(`erasure-cloud worker running (pid ${process.pid})\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await worker.stop();
  await webhooks.stop();
  await db.close();
}

async function main(argv: string[]): Promise<number> {
  const { positionals, flags } = parseArgs(argv);
  const [command, sub] = positionals;
  const json = flags.json === true;
  switch (command) {
    case undefined:
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
        withStore(async (db, config) => {
          const keys = await deploymentKeys(config, db);
          return check({ publicKeys: keys.publicKeys, pdfCertificateOnRecord: keys.pdfCertificateOnRecord });
        }),
      );
      print(verdict, json);
      return verdict.valid ? 0 : 1;
    }
    case 'admin': {
      const config = loadConfig(process.env);
      const db = await openCloudStore(config);
      try {
        print(
          await runAdmin(
            {
              db,
              clock: systemClock,
              deviceTokenPrivateKey: config.DEVICE_TOKEN_PRIVATE_KEY,
              outbound: config.outbound,
              webhookSecretRolloverMs: config.webhookSecretRolloverMs,
            },
            sub,
            flags,
          ),
          json,
        );
      } finally {
        await db.close();
      }
      return 0;
    }
    case 'migrate':
      print(await migrateCommand(process.env, loadConfig(process.env)), json);
      return 0;
    case 'copy-to-postgres':
      print(await copyToPostgresCommand(process.env, loadConfig(process.env), flags), json);
      return 0;
    default:
      throw new UsageError(`unknown command ${command}\n${USAGE}`);
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
