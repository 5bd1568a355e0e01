import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ApiKeyCheck, RealAccount } from '../api-key.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The real account of a valid API key on a `/sandbox/*` call; null in anonymous mode. */
    realAccount: RealAccount | null;
  }
}

/** Spec 7 "Sandbox": the body of a rejected key. */
export const INVALID_KEY = { error: 'invalid API key (webapp rejected it)' } as const;

/** The body of a call that anonymous mode may not make (`live_request`). */
export const SIGN_IN_REQUIRED = { error: 'API key required: send your API key as a bearer token (Authorization: Bearer …)' } as const;

/**
 * Spec 5.5: the optional bearer API key of the harness. No header is anonymous mode; a key the
 * web application rejects is 401; a web application that cannot be reached is 502 (fail closed
 * rather than quietly dropping to anonymous).
 */
export function registerHarnessAuth(scope: FastifyInstance, checkApiKey: ApiKeyCheck): void {
  scope.decorateRequest('realAccount', null);
  scope.addHook('onRequest', async (request: FastifyRequest, reply) => {
    const check = await checkApiKey(request.headers.authorization);
    if (check.kind === 'invalid') return reply.code(401).send(INVALID_KEY);
    if (check.kind === 'unreachable') return reply.code(502).send({ error: `cannot check the API key: webapp unreachable (${check.error})` });
    request.realAccount = check.kind === 'valid' ? check.account : null;
  });
}

/** Bodies reach the handlers as plain objects; anything else reads as an empty body. */
export const asBody = (body: unknown): Record<string, unknown> =>
  typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};

/** Fields of a body that no route knows: named in the 422 so a typo is not silently ignored. */
export function unknownFields(body: Record<string, unknown>, known: readonly string[]): string | undefined {
  const extra = Object.keys(body).filter((k) => !known.includes(k));
  return extra.length > 0 ? `unknown field${extra.length > 1 ? 's' : ''}: ${extra.join(', ')}` : undefined;
}
