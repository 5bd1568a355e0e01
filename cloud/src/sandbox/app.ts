import type { KeyObject } from 'node:crypto';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { Clock } from '../adapters/clock.js';
import { posterOf, type HttpPoster } from '../adapters/http-post.js';
import { createOutboundClient, type Resolve } from '../adapters/outbound-http.js';
import { deviceStore } from '../adapters/db/device-store.js';
import { GroupCommit } from '../adapters/db/group-commit.js';
import type { SqlDatabase } from '../adapters/sql/database.js';
import type { DeviceDeps } from '../domain/device/deps.js';
import { SINGLE_ATTEMPT_POLICY } from '../domain/webhooks/policy.js';
import { createFastify } from '../http/fastify.js';
import { registerInternalAuth } from '../http/internal-auth.js';
import { registerInternalRoutes } from '../http/routes/internal.js';
import { sweepPacer } from '../domain/floor/sweep.js';
import { createApiKeyCheck } from './api-key.js';
import { synchronousCertificates } from './certificates.js';
import { liveRequest } from './live-request.js';
import { browserPage } from './pages/browser.js';
import { livePage } from './pages/live.js';
import { webhooksPage } from './pages/webhooks.js';
import { asBody, registerHarnessAuth, SIGN_IN_REQUIRED } from './routes/harness-auth.js';
import { registerListingRoutes, registerVerifyRoute } from './routes/listings.js';
import { registerTokenRoutes } from './routes/tokens.js';
import { registerWebhookRoutes } from './routes/webhooks.js';
import { createSandboxWebhooks, type SandboxWebhooks } from './webhooks/delivery.js';

export interface SandboxAppDeps {
  /** The sandbox's own SQLite store (DATA_DIR/sandbox.sqlite): the attempts rely on its single writer. */
  db: SqlDatabase;
  clock: Clock;
  /** HMAC key of the `/internal/*` mirror; unset, the mirror takes unsigned calls (spec 5.2). */
  internalApiSecret: string | undefined;
  /** WEBAPP_BASE_URL: API-key checks and the live console's default. */
  webappBaseUrl: string;
  /** Signs sandbox certificates; its public half verifies them. */
  signingKey: KeyObject;
  publicKey: KeyObject;
  /** The sandbox's own base URL, printed as `verify_url`. */
  publicBaseUrl: string;
  logger?: FastifyServerOptions['logger'];
  /** Webhook POSTs (default: the cloud's guarded outbound client, http allowed, 10 s timeout). */
  post?: HttpPoster | undefined;
  /** WEBHOOK_ALLOW_LOOPBACK: subscriptions may reach loopback receivers (tests, development). */
  allowLoopback?: boolean | undefined;
  /** Outbound fetch of the API-key checks, to the configured WEBAPP_BASE_URL (default: global fetch). */
  fetch?: typeof fetch | undefined;
  /** Test seam: the DNS the outbound client's address guard consults (default: the system's). */
  resolve?: Resolve | undefined;
}

/** Spec 7 "Sandbox": the body of every unhandled error. */
export const INTERNAL_ERROR_BODY = { success: false, errors: [{ code: 7000, message: 'Internal Server Error' }] } as const;

/**
 * Builds the sandbox (ARCHITECTURE: a second Fastify app reusing the domain with sandbox
 * policies). The `/internal/*` mirror is the cloud's own routes over {@link DeviceDeps} whose
 * policies are swapped: synchronous certificates and single-attempt webhooks. The harness, the
 * public certificate check and the HTML pages sit beside it. `main.ts` is what listens.
 */
export function buildSandboxApp(deps: SandboxAppDeps): { app: FastifyInstance; webhooks: SandboxWebhooks } {
  // CONTRACT.md: one JSON line per request, as the cloud writes it; spec 7's body for 5xx.
  const app = createFastify(deps.logger, { internal: INTERNAL_ERROR_BODY });

  // Spec 6: sandbox URLs may be http://; the address guard holds all the same (one door out).
  const outbound = { allowHttp: true, allowLoopback: deps.allowLoopback ?? false };
  // Webhook POSTs and live requests alike go through it; 10 s is spec 8's timeout.
  const client = createOutboundClient({ ...outbound, timeoutMs: SINGLE_ATTEMPT_POLICY.timeoutMs, resolve: deps.resolve });
  app.addHook('onClose', async () => client.close());
  const webhooks = createSandboxWebhooks({
    db: deps.db,
    clock: deps.clock,
    post: deps.post ?? posterOf(client),
    publicBaseUrl: deps.publicBaseUrl,
    log: app.log,
  });
  const device: DeviceDeps = {
    db: deps.db,
    clock: deps.clock,
    store: deviceStore,
    events: webhooks.events,
    issueCertificate: synchronousCertificates({ signingKey: deps.signingKey, publicBaseUrl: deps.publicBaseUrl }),
    // The floor view's reports (issue 32), so an integrator sees `drive_stalled` as the cloud sends
    // it; the sandbox has no board to tell.
    floor: { enabled: true, committed: () => undefined, sweep: sweepPacer() },
  };
  app.register(async (internal) => {
    registerInternalAuth(internal, deps.internalApiSecret, deps.clock, 'skip');
    registerInternalRoutes(internal, device, new GroupCommit(deps.db));
  });

  app.register(async (harness) => {
    registerHarnessAuth(harness, createApiKeyCheck({ webappBaseUrl: deps.webappBaseUrl, clock: deps.clock, fetch: deps.fetch }));
    registerTokenRoutes(harness, { db: deps.db, clock: deps.clock });
    registerListingRoutes(harness, { db: deps.db, publicKey: deps.publicKey });
    registerWebhookRoutes(harness, { db: deps.db, clock: deps.clock, webhooks, outbound });
    // A request to a URL the caller types, its answer returned: only for a caller the real web
    // application knows (a valid bearer API key), never in anonymous mode.
    harness.post('/sandbox/live_request', async (request, reply) => {
      if (!request.realAccount) return reply.code(401).send(SIGN_IN_REQUIRED);
      const outcome = await liveRequest(asBody(request.body), { read: client.read, policy: outbound });
      if (outcome.status !== 200 && outcome.detail) request.log.warn({ error: outcome.detail }, 'live request failed');
      return reply.code(outcome.status).send(outcome.body);
    });
  });
  registerVerifyRoute(app, { db: deps.db, publicKey: deps.publicKey });

  const html = (render: () => string) => async (_request: unknown, reply: import('fastify').FastifyReply) =>
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(render());
  app.get('/', html(browserPage));
  app.get('/webhooks', html(webhooksPage));
  app.get('/live', html(() => livePage(deps.webappBaseUrl)));
  app.get('/health', async () => ({ ok: true }));

  // Let started deliveries settle before the database closes under them.
  app.addHook('onClose', async () => webhooks.idle());
  return { app, webhooks };
}
