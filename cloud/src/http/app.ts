import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { ERRORS } from '@erasure/shared';
import type { Clock } from '../adapters/clock.js';
import type { WritableDb } from '../adapters/db/open.js';
import { refuseInternalWithoutSecret, registerInternalAuth } from './internal-auth.js';
import { registerInternalRoutes } from './routes/internal.js';

export interface CloudAppDeps {
  db: WritableDb;
  clock: Clock;
  /** HMAC key of /internal/*; undefined makes the namespace answer 503. */
  internalApiSecret: string | undefined;
  logger?: FastifyServerOptions['logger'];
}

/** Builds the cloud's Fastify app from injected deps; `main.ts` is what listens. */
export function buildCloudApp(deps: CloudAppDeps): FastifyInstance {
  const app = Fastify({
    logger: deps.logger ?? false,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, useDefaults: false } },
  });

  // One place turns failures into bodies: 4xx keep their message, 5xx details stay in the log.
  app.setErrorHandler((error: { statusCode?: number; message: string }, request, reply) => {
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.code(500).send({ error: ERRORS.internalError });
    }
    return reply.code(status).send({ error: status === 413 ? ERRORS.payloadTooLarge : error.message });
  });
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ error: ERRORS.notFound }));

  refuseInternalWithoutSecret(app, deps.internalApiSecret);
  app.register(async (internal) => {
    registerInternalAuth(internal, deps.internalApiSecret, deps.clock);
    registerInternalRoutes(internal, { db: deps.db, clock: deps.clock });
  });

  app.get('/health', async () => ({ ok: true }));
  return app;
}
