import type { FastifyInstance, FastifyRequest } from 'fastify';
import secureJson from 'secure-json-parse';
import {
  ERRORS,
  SERVICE_SIGNATURE_HEADER,
  SERVICE_TIMESTAMP_HEADER,
  verifyServiceRequest,
} from '@erasure/shared';
import type { Clock } from '../adapters/clock.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The exact bytes received: the HMAC covers these, never a re-serialisation. */
    rawBody?: Buffer;
    /** Set when the bytes were not JSON; answered only after the signature check. */
    bodyUnparseable?: boolean;
  }
}

const header = (request: FastifyRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
};

/** What to do when no secret is configured: the cloud refuses (fail closed), the sandbox skips the check (spec 5.2). */
export type MissingSecretPolicy = 'refuse' | 'skip';

/**
 * Guards an `/internal/*` scope (spec 5.2): every request must carry a fresh HMAC over its raw
 * body, checked before the body is even looked at. (No secret at all is refused earlier, for
 * the whole namespace, by {@link refuseInternalWithoutSecret}; the sandbox passes `skip`.)
 */
export function registerInternalAuth(
  scope: FastifyInstance,
  secret: string | undefined,
  clock: Clock,
  withoutSecret: MissingSecretPolicy = 'refuse',
): void {
  // Keep the raw bytes; parse afterwards so a garbled body from an unsigned caller still gets 401.
  scope.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 4 * 1024 * 1024 }, (request, body, done) => {
    const raw = body as Buffer;
    request.rawBody = raw;
    if (raw.length === 0) return done(null, undefined);
    try {
      // secure-json-parse refuses __proto__ / constructor.prototype poisoning outright.
      done(null, secureJson.parse(raw, null, { protoAction: 'error', constructorAction: 'error' }));
    } catch {
      request.bodyUnparseable = true;
      done(null, undefined);
    }
  });

  scope.addHook('preValidation', async (request, reply) => {
    // Only the sandbox gets here without a secret: integrators may call it unsigned.
    const skip = !secret && withoutSecret === 'skip';
    const ok = skip || verifyServiceRequest(
      secret ?? '',
      {
        timestamp: header(request, SERVICE_TIMESTAMP_HEADER),
        signature: header(request, SERVICE_SIGNATURE_HEADER),
        rawBody: request.rawBody ?? Buffer.alloc(0),
      },
      Math.floor(clock.now().getTime() / 1000),
    );
    if (!ok) return reply.code(401).send({ error: ERRORS.unauthorized });
    if (request.bodyUnparseable) return reply.code(400).send({ error: ERRORS.invalidJson });
  });
}

/** With no secret configured the whole `/internal/*` namespace answers 503, unknown paths included. */
export function refuseInternalWithoutSecret(app: FastifyInstance, secret: string | undefined): void {
  if (secret) return;
  app.addHook('onRequest', async (request, reply) => {
    if (request.url === '/internal' || request.url.startsWith('/internal/')) {
      return reply.code(503).send({ error: ERRORS.internalSecretUnset });
    }
  });
}
