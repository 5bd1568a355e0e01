import { concretePort } from '../adapters/free-port.js';
import { systemClock } from '../adapters/clock.js';
import { openSandboxDatabase } from '../adapters/db/sandbox/open.js';
import { loadCertificateKeys } from '../adapters/certificate-keys.js';
import { buildSandboxApp } from './app.js';
import { loadSandboxConfig } from './config.js';

/**
 * `erasure-cloud sandbox`: opens DATA_DIR/sandbox.sqlite (cloud migrations plus the sandbox's),
 * loads the certificate key from that database (imported from DATA_DIR/keys when an older release
 * left one there), listens and prints the bound URL.
 */
export async function serveSandbox(env: Readonly<Record<string, string | undefined>>): Promise<void> {
  const config = loadSandboxConfig({ ...env, PORT: String(await concretePort(env.HOST || '127.0.0.1', Number(env.PORT || 8788))) });
  const db = openSandboxDatabase(config.databasePath);
  const keys = await loadCertificateKeys({ db, dataDir: config.DATA_DIR, signingKeyBase64: config.CERTIFICATE_SIGNING_KEY });
  const { app } = buildSandboxApp({
    db,
    clock: systemClock,
    internalApiSecret: config.INTERNAL_API_SECRET,
    webappBaseUrl: config.WEBAPP_BASE_URL,
    signingKey: keys.privateKey,
    publicKey: keys.publicKey,
    publicBaseUrl: config.publicBaseUrl,
    logger: { level: 'info' },
    allowLoopback: config.WEBHOOK_ALLOW_LOOPBACK === '1',
  });
  if (!config.INTERNAL_API_SECRET) app.log.warn('INTERNAL_API_SECRET is not set: the /internal/* mirror takes unsigned calls');
  const address = await app.listen({ host: config.HOST, port: config.PORT });
  process.stdout.write(`erasure-cloud sandbox listening on ${address}\n`);
  const stop = async () => {
    await app.close();
    await db.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
