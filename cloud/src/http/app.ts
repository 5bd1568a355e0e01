import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { ERRORS } from '@erasure/shared';
import type { Clock } from '../adapters/clock.js';
import type { SqlDatabase } from '../adapters/sql/database.js';
import { guardInternalNamespace, registerInternalAuth } from './internal-auth.js';
import { registerInternalRoutes } from './routes/internal.js';
import { createFastify } from './fastify.js';
import { registerWebhookRoutes } from './routes/webhooks.js';
import { createWebhookRuntime, type WebhookRuntime } from '../jobs/webhook-runtime.js';
import { commitsFor } from '../adapters/db/group-commit.js';
import { databaseWindowStore } from '../adapters/db/rate-windows.js';
import { databaseSeenSignatures } from '../adapters/db/seen-signatures.js';
import { deviceStore } from '../adapters/db/device-store.js';
import { wipeGridReaderOnce } from '../adapters/db/wipes-grid.js';
import { posterOf, type HttpPoster } from '../adapters/http-post.js';
import { STRICT_OUTBOUND, type OutboundPolicy } from '../domain/webhooks/ssrf.js';
import { registerFormParser } from './forms.js';
import { registerSessions } from './session.js';
import { registerAuthRoutes } from './routes/auth.js';
import { registerPages } from './routes/pages.js';
import { registerPublicApi } from './routes/public-api.js';
import { registerApiDocs } from './routes/api-docs.js';
import { registerCertificateLots } from './routes/app-certificate-lots.js';
import { registerLotExports } from './routes/app-lot-exports.js';
import { registerAppWipes } from './routes/app-wipes.js';
import { registerAppAssets } from './routes/app-assets.js';
import { registerAppDevices } from './routes/app-devices.js';
import { registerAppAtaMasterPasswords } from './routes/app-ata-master-passwords.js';
import { registerAppHealthGrading } from './routes/app-health-grading.js';
import { registerAppJobDetails } from './routes/app-job-details.js';
import { registerAppFloor } from './routes/app-floor.js';
import { createFloorBus } from '../adapters/db/floor-bus.js';
import { sweepPacer } from '../domain/floor/sweep.js';
import { registerAppBranding } from './routes/app-branding.js';
import { registerAppCertificateLanguage } from './routes/app-certificate-language.js';
import { registerAppErasurePolicy } from './routes/app-erasure-policy.js';
import { registerAppDownloads } from './routes/app-downloads.js';
import type { BootImages } from '../adapters/boot-images.js';
import type { TokenTermsDefaults } from '../domain/devices/token-terms.js';
import type { DownloadLimits } from './download-slots.js';
import { registerAppApiKeys } from './routes/app-api-keys.js';
import { registerCertificateRoutes, type CertificateRouteDeps } from './routes/certificates.js';
import { registerLotVerify } from './routes/lot-verify.js';
import { sampleOnCertifiedWipe } from '../domain/validation/sampling.js';
import { registerAppValidation } from './routes/app-validation.js';
import * as validationStore from '../adapters/db/validation.js';

export interface CloudAppDeps {
  db: SqlDatabase;
  clock: Clock;
  /** HMAC key of /internal/*; undefined makes the namespace answer 503. */
  internalApiSecret: string | undefined;
  /** Problems of this deployment every signed-in user should see (e.g. no public URL), shown as banners. */
  deploymentWarnings?: readonly string[] | undefined;
  logger?: FastifyServerOptions['logger'];
  // Web app and public API (issue 6): all optional, so existing callers keep building the app.
  /** base64 seed of DEVICE_TOKEN_PRIVATE_KEY: /downloads mints device tokens with it. */
  deviceTokenPrivateKey?: string | undefined;
  /** Base images offered on /downloads (DATA_DIR/images); absent = image downloads off. */
  images?: BootImages | undefined;
  /** PUBLIC_GATEWAY_URL, baked into downloaded images. */
  gatewayUrl?: string | undefined;
  /** IMAGE_DOWNLOADS_PER_ACCOUNT / _TOTAL: concurrent image downloads (default 2 per account, 6 in all). */
  downloadLimits?: DownloadLimits | undefined;
  /** IMAGE_DOWNLOAD_STALL_SECONDS: an image download whose reader takes nothing this long is cut off (default 60). */
  downloadStallSeconds?: number | undefined;
  /** DEVICE_TOKEN_DEFAULT_*: terms of minted tokens for accounts that chose none (default 100 check-ins, 90 days). */
  tokenDefaults?: TokenTermsDefaults | undefined;
  /** PUBLIC_BASE_URL; an https base makes the session cookie `Secure`. */
  publicBaseUrl?: string | undefined;
  /** Built pages (default cloud/web-dist). */
  webDistDir?: string | undefined;
  /** Public API requests per key per window (default 600 per minute). */
  publicApiRateLimit?: { limit: number; windowMs: number } | undefined;
  /**
   * Where webhooks and Push may go: WEBHOOK_ALLOW_HTTP widens the scheme, WEBHOOK_ALLOW_LOOPBACK
   * the loopback addresses (tests, development). Default: https to public addresses only.
   */
  outbound?: OutboundPolicy | undefined;
  /** Outbound POSTs of the wipes grid's Push (default: the webhooks' outbound client). */
  httpPoster?: HttpPoster | undefined;
  /** Certificates (issue 4): object store and keys; without them the /certificates routes are absent. */
  certificates?: Omit<CertificateRouteDeps, 'db' | 'clock' | 'publicBaseUrl'> | undefined;
  /** Webhooks (issue 5): outbox, routes, worker. Absent: built from the deps above, without a worker. */
  webhooks?: WebhookRuntime | undefined;
  /**
   * TRUSTED_PROXIES: peers whose X-Forwarded-For names the client, so sign-in and API limits count
   * the real client, not the proxy. Absent: the peer is the client and the header is ignored.
   */
  trustedProxy?: ((address: string) => boolean) | undefined;
  /** MAX_DRIVES_PER_MACHINE: wipe results one engine check-in can certify; absent, 256. */
  maxDrivesPerMachine?: number | undefined;
  /** Rows one wipes CSV export may hold (WIPES_CSV_MAX_ROWS); default 1,000,000. */
  wipesCsvMaxRows?: number | undefined;
  /** FLOOR_VIEW: whether machines' live reports are taken (issue 32); default true. */
  floorView?: boolean | undefined;
}

/** Builds the cloud's Fastify app from injected deps; `main.ts` is what listens. */
export function buildCloudApp(deps: CloudAppDeps): FastifyInstance {
  // 4xx keep their message (413 in the spec's words); 5xx details stay in the log.
  const app = createFastify(deps.logger, {
    internal: { error: ERRORS.internalError },
    clientMessage: (status, message) => (status === 413 ? ERRORS.payloadTooLarge : message),
  }, deps.trustedProxy);

  // Device events go to the webhook outbox in the transaction of their write (spec 6).
  const webhooks =
    deps.webhooks ??
    createWebhookRuntime({ db: deps.db, clock: deps.clock, publicBaseUrl: deps.publicBaseUrl ?? '', outbound: deps.outbound ?? STRICT_OUTBOUND });
  if (!deps.webhooks) app.addHook('onClose', async () => webhooks.stop());

  // The floor view's fan-out: a stored report tells the boards of every instance (issue 32).
  const floorBus = createFloorBus(deps.db, app.log);
  app.addHook('onClose', async () => floorBus.close());
  const floorView = deps.floorView ?? true;

  guardInternalNamespace(app, deps.internalApiSecret);
  app.register(async (internal) => {
    registerInternalAuth(internal, deps.internalApiSecret, deps.clock, 'refuse', databaseSeenSignatures(deps.db));
    registerInternalRoutes(
      internal,
      {
        db: deps.db,
        clock: deps.clock,
        store: deviceStore,
        events: webhooks.events,
        maxDrivesPerMachine: deps.maxDrivesPerMachine,
        floor: { enabled: floorView, committed: (accountId) => floorBus.committed(accountId), sweep: sweepPacer() },
        validation: { store: validationStore, onCertifiedWipe: (db, wipe, now) => sampleOnCertifiedWipe({ db, now, store: validationStore }, wipe) },
      },
      commitsFor(deps.db),
    );
  });

  // Web application (sessions, sign-in, pages, /app/api/*) and the public API /api/v1.
  // Sign-in and API rate-limit windows live in the database (shared by processes, kept over restarts).
  const windows = databaseWindowStore(deps.db);
  app.addHook('onClose', async () => windows.close());
  registerSessions(app, { db: deps.db, clock: deps.clock });
  registerAuthRoutes(app, { db: deps.db, clock: deps.clock, secureCookies: deps.publicBaseUrl?.startsWith('https:') ?? false, windows, warnings: deps.deploymentWarnings ?? [] });
  registerPages(app, { webDistDir: deps.webDistDir });
  registerPublicApi(app, { db: deps.db, clock: deps.clock, rateLimit: deps.publicApiRateLimit, windows, publicBaseUrl: deps.publicBaseUrl, urlSigningSecret: deps.certificates?.urlSigningSecret, store: deps.certificates?.store });
  registerApiDocs(app, { publicBaseUrl: deps.publicBaseUrl });
  // One grid reader for the wipes grid, the machines' wipes and certificate lots.
  const wipeGrid = wipeGridReaderOnce(deps.db);
  app.register(async (web) => {
    registerFormParser(web);
    // One door out: Push goes through the same guarded client as webhook deliveries.
    const post = deps.httpPoster ?? posterOf(webhooks.client);
    registerAppWipes(web, { db: deps.db, clock: deps.clock, post, outbound: webhooks.manage.outbound, wipeGrid, csvMaxRows: deps.wipesCsvMaxRows });
    registerAppAssets(web, { db: deps.db, wipeGrid });
    registerAppDevices(web, { db: deps.db, clock: deps.clock });
    registerAppErasurePolicy(web, { db: deps.db, clock: deps.clock });
    registerAppAtaMasterPasswords(web, { db: deps.db, clock: deps.clock });
    registerAppHealthGrading(web, { db: deps.db, clock: deps.clock });
    registerAppJobDetails(web, { db: deps.db });
    registerAppFloor(web, { db: deps.db, clock: deps.clock, bus: floorBus, enabled: floorView });
    registerAppBranding(web, { db: deps.db, clock: deps.clock, store: deps.certificates?.store });
    registerAppCertificateLanguage(web, { db: deps.db });
    registerAppDownloads(web, {
      db: deps.db,
      clock: deps.clock,
      deviceTokenPrivateKey: deps.deviceTokenPrivateKey,
      images: deps.images,
      gatewayUrl: deps.gatewayUrl,
      tokenDefaults: deps.tokenDefaults,
      limits: deps.downloadLimits,
      stallSeconds: deps.downloadStallSeconds,
    });
    registerAppApiKeys(web, { db: deps.db, clock: deps.clock });
    registerAppValidation(web, { db: deps.db, clock: deps.clock });
    registerWebhookRoutes(web, webhooks.manage);
  });

  // Certificates (spec 4.4): public verify, session-guarded downloads, presigned files.
  if (deps.certificates) {
    registerCertificateRoutes(app, { ...deps.certificates, db: deps.db, clock: deps.clock, publicBaseUrl: deps.publicBaseUrl });
    registerCertificateLots(app, { db: deps.db, clock: deps.clock, store: deps.certificates.store, publicBaseUrl: deps.publicBaseUrl, wipeGrid, pdfSigning: deps.certificates.pdfSigning });
    registerLotVerify(app, { db: deps.db, store: deps.certificates.store, publicKeys: deps.certificates.publicKeys, publicBaseUrl: deps.publicBaseUrl });
    registerLotExports(app, { db: deps.db, clock: deps.clock, store: deps.certificates.store, wipeGrid, canSignPdf: !!deps.certificates.pdfSigning });
  }

  app.get('/health', async () => ({ ok: true }));
  return app;
}
