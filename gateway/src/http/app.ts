import type { KeyObject } from 'node:crypto';
import Fastify, { LogController, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ERRORS, RETIRED_GATEWAY_PATHS, exceedsJsonDepth, gatewayApi } from '@erasure/shared';
import { systemClock, type Clock } from '../clock.js';
import type { Forwarder } from '../forward.js';
import { GATEWAY_ERRORS } from './answers.js';
import { deviceRoutes } from './routes.js';

/** Largest device body outside diagnostics; a fingerprint is a few tens of KiB. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/** Everything the gateway app needs, injected so tests build it against their own peers. */
export interface GatewayAppDeps {
  /** Fleet public key; `undefined` = every token route answers 401 (spec 5.1). */
  readonly publicKey: KeyObject | undefined;
  /** Signed channel to the cloud; it owns `INTERNAL_API_SECRET` and fails closed without it. */
  readonly forwarder: Forwarder;
  readonly clock?: Clock;
  /** Fastify/pino logger options; `false` in tests that do not read the log. */
  readonly logger?: FastifyServerOptions['logger'];
}

/**
 * One JSON line per request (CONTRACT.md): Fastify's default writes two ("incoming" and
 * "completed"), so the first is dropped and the second carries method, url and status.
 */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}
  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = { method: request.method, url: request.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime) };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request');
  }
}

/** Builds the edge gateway (spec 4.1); `main.ts` decides where it listens. */
export function buildGatewayApp(deps: GatewayAppDeps) {
  const app = Fastify({
    logger: deps.logger ?? false,
    logController: new OneLinePerRequest(),
    bodyLimit: BODY_LIMIT_BYTES,
    // Bodies are the contract or they are refused: nothing stripped, coerced or defaulted.
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, useDefaults: false } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  // JSON only. Fastify's parser refuses an empty body, but devices POST verify and check-in
  // with none at all (and some clients still send the JSON content type), so empty means
  // "no body"; everything else goes through Fastify's poisoning-safe parser.
  app.removeAllContentTypeParsers();
  // 'error' on both: a body carrying `__proto__` or `constructor.prototype` is refused, not cleaned.
  const secureJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    return secureJson(request, text, (error, parsed) => {
      if (error) return done(error, undefined);
      // Refused before validation and before re-encoding for the cloud: a body nested deeper than
      // any real one would hit SQLite's JSON depth limit downstream (or the encoder's stack).
      if (exceedsJsonDepth(parsed)) return done(Object.assign(new Error(ERRORS.nestedTooDeeply), { statusCode: 400 }), undefined);
      return done(null, parsed);
    });
  });

  app.setErrorHandler((error, request, reply) => {
    const status = statusOf(error);
    if (hasValidation(error)) return reply.code(400).send({ error: ERRORS.invalidPayload });
    if (status === 413) return reply.code(413).send({ error: ERRORS.payloadTooLarge });
    // Malformed or poisoned JSON, an unsupported content type: all "the body was not
    // acceptable", which spec 7 spells as one 400.
    if (status >= 400 && status < 500) return reply.code(400).send({ error: ERRORS.invalidPayload });
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ error: ERRORS.internalError });
  });

  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ error: ERRORS.notFound }));

  // Health is open (CONTRACT.md): a device probes it before it knows its token is good.
  app.get(gatewayApi.health.url, async () => ({ ok: true }) as const);

  // Retired endpoints (spec 1.8) answer 410 to any caller. Answering from onRequest means
  // the body is never read, so an old client's malformed body still learns "gone".
  const gone = async (_request: FastifyRequest, reply: FastifyReply) => reply.code(410).send({ error: GATEWAY_ERRORS.gone });
  for (const url of RETIRED_GATEWAY_PATHS) {
    app.route({ method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'], url, onRequest: gone, handler: gone });
  }

  app.register(deviceRoutes, { publicKey: deps.publicKey, forwarder: deps.forwarder, clock: deps.clock ?? systemClock });
  return app;
}

/** The built app's type, for callers that hold on to it. */
export type GatewayApp = ReturnType<typeof buildGatewayApp>;

function statusOf(error: unknown): number {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' && Number.isInteger(status) ? status : 500;
}

function hasValidation(error: unknown): boolean {
  return Array.isArray((error as { validation?: unknown } | null)?.validation);
}
