import type { FastifyInstance } from 'fastify';

/**
 * Accepts `application/x-www-form-urlencoded` bodies in a scope (sign-in form, the image
 * download form) as a plain object; a repeated field keeps its last value. Registered only in
 * the web scopes: the HMAC-signed internal API takes JSON and nothing else.
 */
export function registerFormParser(scope: FastifyInstance): void {
  scope.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 64 * 1024 },
    (_request, body, done) => {
      const fields: Record<string, string> = Object.create(null);
      for (const [name, value] of new URLSearchParams(body as string)) fields[name] = value;
      done(null, fields);
    },
  );
}

/** A body field as a string, or undefined. */
export function field(body: unknown, name: string): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
}
