import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { ERRORS } from '@erasure/shared';
import { OneLinePerRequest } from './request-log.js';

/** How one app words its error answers; everything else about failures is shared. */
export interface ErrorBodies {
  /** The body of every 5xx answer (sent as 500); the details go to the log only. */
  internal: unknown;
  /** The `error` text of a 4xx answer, from its status and Fastify's message (default: the message). */
  clientMessage?: (status: number, message: string) => string;
}

/**
 * A Fastify instance as the cloud and the sandbox both build it: one JSON log line per request
 * (CONTRACT.md), Ajv that rejects instead of stripping, coercing or defaulting, and one error
 * handler (STYLE E) in which 4xx keep their message and 5xx details stay in the log.
 */
export function createFastify(
  logger: FastifyServerOptions['logger'] | undefined,
  bodies: ErrorBodies,
  trustedProxy?: (address: string) => boolean,
): FastifyInstance {
  const app = Fastify({
    logger: logger ?? false,
    // `request.ip` is the rightmost X-Forwarded-For hop that is not a trusted proxy, read only when
    // the peer itself is one (proxy-addr); without TRUSTED_PROXIES the header is ignored entirely.
    ...(trustedProxy ? { trustProxy: (address: string) => trustedProxy(address) } : {}),
    logController: new OneLinePerRequest(),
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, useDefaults: false } },
  });
  app.setErrorHandler((error: { statusCode?: number; message: string }, request, reply) => {
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.code(500).send(bodies.internal);
    }
    return reply.code(status).send({ error: bodies.clientMessage ? bodies.clientMessage(status, error.message) : error.message });
  });
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ error: ERRORS.notFound }));
  return app;
}
