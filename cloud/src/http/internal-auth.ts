import type { FastifyInstance, FastifyRequest } from 'fastify';
import secureJson from 'secure-json-parse';
import {
  ERRORS,
  SERVICE_SIGNATURE_HEADER,
  SERVICE_SKEW_SECONDS,
  SERVICE_TIMESTAMP_HEADER,
  verifyServiceRequest,
  wellFormedServiceHeaders,
} from '@erasure/shared';
import type { Clock } from '../adapters/clock.js';
import type { SeenSignatures } from '../adapters/db/seen-signatures.js';

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
 * Until when an accepted signature must be remembered: its timestamp verifies while the clock
 * (in whole seconds) is at most 300 s past it, i.e. until the end of that last second.
 */
export const replayableUntilMs = (timestamp: string): number => (Number(timestamp) + SERVICE_SKEW_SECONDS + 1) * 1000;

/**
 * Guards an `/internal/*` scope (spec 5.2): every request must carry a fresh HMAC over its raw
 * body, checked before the body is even looked at. (No secret at all is refused earlier, for
 * the whole namespace, by {@link guardInternalNamespace}; the sandbox passes `skip`.)
 *
 * With `seen`, a valid signature is accepted once (issue 28 item 6): the spec's headers carry no
 * nonce, but the signature covers the timestamp and the exact bytes, so the same signature twice
 * is a replay and gets the spec's answer for a bad signature, 401 `unauthorized`. Nothing
 * legitimate sends it twice: the gateway signs every forward afresh and tries another instance
 * only when the connection failed before a byte left (gateway/src/forward.ts).
 */
export function registerInternalAuth(
  scope: FastifyInstance,
  secret: string | undefined,
  clock: Clock,
  withoutSecret: MissingSecretPolicy = 'refuse',
  seen?: SeenSignatures,
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
    // Only signatures that verified are stored: nobody without the secret can fill the table.
    const signature = header(request, SERVICE_SIGNATURE_HEADER);
    const timestamp = header(request, SERVICE_TIMESTAMP_HEADER);
    if (!skip && seen && signature && timestamp) {
      const first = await seen.firstUse(signature, replayableUntilMs(timestamp), clock.now().getTime());
      if (!first) return reply.code(401).send({ error: ERRORS.unauthorized });
    }
    if (request.bodyUnparseable) return reply.code(400).send({ error: ERRORS.invalidJson });
  });
}

/** The decoded path of a request, without its query: `/%69nternal?x` is `/internal`. */
function pathOf(url: string): string {
  const path = url.split('?', 1)[0] ?? '';
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

const isInternalPath = (url: string): boolean => {
  const path = pathOf(url);
  return path === '/internal' || path.startsWith('/internal/');
};

/**
 * Guards the whole `/internal/*` namespace before routing, content types or bodies come into
 * play (spec 5.2): with no secret the cloud answers 503 (fail closed); with one, a request whose
 * signature headers are missing or malformed is 401 whatever its path, method or content type.
 * The full HMAC over the raw body is checked per route by {@link registerInternalAuth}.
 */
export function guardInternalNamespace(app: FastifyInstance, secret: string | undefined): void {
  app.addHook('onRequest', async (request, reply) => {
    if (!isInternalPath(request.url)) return;
    if (!secret) return reply.code(503).send({ error: ERRORS.internalSecretUnset });
    if (!wellFormedServiceHeaders(header(request, SERVICE_TIMESTAMP_HEADER), header(request, SERVICE_SIGNATURE_HEADER))) {
      return reply.code(401).send({ error: ERRORS.unauthorized });
    }
  });
}
