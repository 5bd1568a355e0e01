import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../adapters/clock.js';
import type { SubscriptionStatus } from '../adapters/db/accounts.js';
import type { Role } from '../adapters/db/users.js';
import type { SqlDatabase } from '../adapters/sql/database.js';
import { lookupSession } from '../domain/sessions/sign-in.js';
import { sessionStore } from '../adapters/db/session-store.js';

/** The cookie holding the session's random id (CONTRACT.md: sign-in sets a session cookie). */
export const SESSION_COOKIE = 'erasure_session';
/** Header (or `_csrf` form field) carrying the session's synchronizer token on writes. */
export const CSRF_HEADER = 'x-csrf-token';

/** Who is signed in, as every session-guarded route sees it. */
export interface SignedIn {
  sessionId: number;
  csrfToken: string;
  user: { id: number; publicId: string; email: string; role: Role };
  account: {
    id: number;
    publicId: string;
    name: string;
    active: boolean;
    subscriptionStatus: SubscriptionStatus;
    currentPeriodEnd: string | null;
  };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by {@link registerSessions} from the session cookie; null when not signed in. */
    signedIn: SignedIn | null;
  }
}

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** One cookie's value from the Cookie header, or undefined. */
export function readCookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** Set-Cookie for a new session: HttpOnly, SameSite=Lax, Secure when served over https. */
export function sessionCookie(value: string, maxAgeSeconds: number, secure: boolean): string {
  const maxAge = Math.max(0, Math.floor(maxAgeSeconds));
  return `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure ? '; Secure' : ''}`;
}

export function clearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure ? '; Secure' : ''}`;
}

/**
 * Loads the session named by the cookie onto `request.signedIn` for every request. Only a
 * request that carries the cookie costs a lookup; devices and API clients never do.
 */
export function registerSessions(app: FastifyInstance, deps: { db: SqlDatabase; clock: Clock }): void {
  app.decorateRequest('signedIn', null);
  const sessions = { ...deps, store: sessionStore };
  app.addHook('onRequest', async (request) => {
    const value = readCookie(request, SESSION_COOKIE);
    const row = value ? await lookupSession(sessions, value) : undefined;
    if (!row) return;
    request.signedIn = {
      sessionId: row.session_id,
      csrfToken: row.csrf_token,
      user: { id: row.user_id, publicId: row.user_public_id, email: row.email, role: row.role },
      account: {
        id: row.account_id,
        publicId: row.account_public_id,
        name: row.account_name,
        active: row.account_active,
        subscriptionStatus: row.subscription_status,
        currentPeriodEnd: row.current_period_end,
      },
    };
  });
}

/** Only same-site paths, so `?next=` can never send a signed-in user to another site. */
export function safeNext(value: unknown): string | undefined {
  return typeof value === 'string' && /^\/(?![/\\])/.test(value) && value.length < 2000 ? value : undefined;
}

/** A browser asking for a page (a GET that accepts HTML), as opposed to a script or API client. */
export const wantsPage = (request: FastifyRequest) =>
  request.method === 'GET' && (request.headers.accept ?? '').includes('text/html');

function csrfTokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers[CSRF_HEADER];
  if (typeof header === 'string') return header;
  const body = request.body as Record<string, unknown> | undefined;
  return body && typeof body === 'object' && typeof body._csrf === 'string' ? body._csrf : undefined;
}

/** Constant-time comparison of the presented synchronizer token with the session's. */
export function csrfMatches(request: FastifyRequest): boolean {
  const expected = request.signedIn?.csrfToken;
  const presented = csrfTokenOf(request);
  if (!expected || !presented) return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * True when the browser says the request comes from another site (Fetch Metadata, or an
 * Origin naming another host). Guards the two routes reached before a CSRF token exists.
 */
export function isCrossSite(request: FastifyRequest): boolean {
  if (request.headers['sec-fetch-site'] === 'cross-site') return true;
  const origin = request.headers.origin;
  if (!origin || origin === 'null') return origin === 'null';
  try {
    return new URL(origin).host !== request.headers.host;
  } catch {
    return true;
  }
}

/**
 * preHandler for anything that needs a signed-in user. Not signed in: a page (GET asking for
 * HTML) is redirected 303 to `/login?next=<url>`, anything else gets 401 `{error}`. A write
 * (POST/PUT/PATCH/DELETE) must also carry the session's CSRF token in the `x-csrf-token`
 * header or a `_csrf` form field, else 403. Usage:
 *
 *     app.get('/certificates/:id', { preHandler: requireSession }, (request) => sessionOf(request) …)
 */
export async function requireSession(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | void> {
  if (!request.signedIn) {
    if (wantsPage(request)) {
      const next = encodeURIComponent(request.url);
      return reply.code(303).header('location', `/login?next=${next}`).send();
    }
    return reply.code(401).send({ error: 'sign in required' });
  }
  if (UNSAFE_METHODS.has(request.method) && !csrfMatches(request)) {
    return reply.code(403).send({ error: 'invalid CSRF token' });
  }
}

/** preHandler: {@link requireSession}, then 403 unless the user has one of `roles`. */
export function requireRole(...roles: Role[]) {
  return async function requireRoleHandler(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | void> {
    // Early answers return the reply: that is how an async hook tells Fastify to stop here.
    await requireSession(request, reply);
    if (reply.sent) return reply;
    if (!roles.includes(request.signedIn!.user.role)) {
      return reply.code(403).send({ error: `requires the ${roles.join(' or ')} role` });
    }
  };
}

/** The signed-in user of a request that passed {@link requireSession}. */
export function sessionOf(request: FastifyRequest): SignedIn {
  if (!request.signedIn) throw new Error('sessionOf called on a route without requireSession');
  return request.signedIn;
}
