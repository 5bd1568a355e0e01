import type { KeyObject } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DIAGNOSTICS_LIMIT_BYTES, ERRORS, gatewayApi, type Deny, type ErrorBody } from '@erasure/shared';
import type { Clock } from '../clock.js';
import { forwardedBody, type Forwarder } from '../forward.js';
import { createDeviceAuthenticator, type DeviceIdentity } from '../token.js';
import { FORWARDED_ROUTES, type ForwardedRoute } from './answers.js';

/** Deps of the token-protected routes, passed as plugin options rather than decorators. */
export interface DeviceRoutesOptions {
  readonly publicKey: KeyObject | undefined;
  readonly forwarder: Forwarder;
  readonly clock: Clock;
}

const UNAUTHORIZED: ErrorBody = { error: ERRORS.unauthorized };
const INVALID_TOKEN: Deny = { allow: false, reason: 'invalid_token' };

/**
 * Every route that takes the device token: the forwarded ones and diagnostics.
 * Registered as an encapsulated plugin so the token hook covers exactly these routes and
 * not health, the retired paths or the not-found handler.
 */
export const deviceRoutes: FastifyPluginAsyncTypebox<DeviceRoutesOptions> = async (app, { publicKey, forwarder, clock }) => {
  // Identities live beside the request rather than on it, so no global type is widened.
  const identities = new WeakMap<FastifyRequest, DeviceIdentity>();
  const identityOf = (request: FastifyRequest): DeviceIdentity => {
    const device = identities.get(request);
    // The hook below runs before every handler here; reaching this is a wiring bug.
    if (!device) throw new Error('device route reached without an authenticated token');
    return device;
  };

  // onRequest, not preValidation: the token is checked before the body is even read, so an
  // unauthenticated caller gets 401 whatever it sends and cannot make us parse megabytes.
  const authenticate = createDeviceAuthenticator(publicKey);
  app.addHook('onRequest', async (request, reply) => {
    const check = await authenticate(request.headers.authorization, clock());
    if (check.ok) {
      identities.set(request, { jti: check.jti, sub: check.sub });
      return;
    }
    return check.reason === 'invalid_token' ? reply.code(400).send(INVALID_TOKEN) : reply.code(401).send(UNAUTHORIZED);
  });

  for (const route of Object.values(FORWARDED_ROUTES) as ForwardedRoute[]) {
    app.route({
      method: route.gateway.method,
      url: route.gateway.url,
      schema: { body: route.gateway.body },
      // Fastify validates an absent body as `null`; a device's bodiless verify is `{}`.
      ...(route.bodyOptional ? { preValidation: absentBodyAsEmptyObject } : {}),
      handler: async (request, reply) => {
        const device = identityOf(request);
        const json = forwardedBody(request.body, device);
        if (json === undefined) return reply.code(400).send({ error: ERRORS.invalidPayload });
        const answer = route.answer(await forwarder.post(route.internalPath, json));
        if (answer.problem !== undefined) {
          request.log.warn({ route: route.gateway.url, jti: device.jti, status: answer.status, problem: answer.problem }, 'cloud answer mapped to an error');
        }
        return reply.code(answer.status).send(answer.body);
      },
    });
  }

  app.post(
    gatewayApi.diagnostics.url,
    { bodyLimit: DIAGNOSTICS_LIMIT_BYTES, schema: { body: gatewayApi.diagnostics.body } },
    async (request) => {
      // Spec 4.1: diagnostics go to the console log only; nothing is forwarded or stored.
      request.log.info({ jti: identityOf(request).jti, diagnostics: request.body }, 'device diagnostics');
      return { ok: true } as const;
    },
  );
};

async function absentBodyAsEmptyObject(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  // Only a missing body: a literal `null` is a body, and the schema refuses it.
  if (request.body === undefined) request.body = {};
}
