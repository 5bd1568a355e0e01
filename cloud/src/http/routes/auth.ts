import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../adapters/clock.js';
import type { SqlDatabase } from '../../adapters/sql/database.js';
import { sessionStore } from '../../adapters/db/session-store.js';
import { subscriptionNotice } from '../../domain/accounts/subscription.js';
import { FixedWindowCounter, type WindowStore } from '../../domain/rate-limit/fixed-window.js';
import {
  KNOWN_SOURCE_MS,
  LOGIN_MAX_FAILURES,
  LOGIN_MAX_FAILURES_PER_ACCOUNT,
  LOGIN_MAX_FAILURES_PER_ADDRESS,
  LOGIN_WINDOW_MS,
  signIn,
  signOut,
} from '../../domain/sessions/sign-in.js';
import { field, registerFormParser } from '../forms.js';
import { clearedSessionCookie, isCrossSite, requireSession, safeNext, sessionCookie, sessionOf } from '../session.js';
import { loginPage } from './login-page.js';
import { PAGE_HEADERS } from './pages.js';

export interface AuthDeps {
  db: SqlDatabase;
  clock: Clock;
  /** Cookies get `Secure` when the public base URL is https. */
  secureCookies: boolean;
  /** Where failed sign-ins are counted (the database: shared by processes, kept over restarts). */
  windows: WindowStore;
  /** Deployment problems shown to every signed-in user (see CloudAppDeps.deploymentWarnings). */
  warnings?: readonly string[];
}

const wantsJson = (request: FastifyRequest) => (request.headers['content-type'] ?? '').includes('application/json');

function refuse(request: FastifyRequest, reply: FastifyReply, status: number, error: string, next?: string) {
  if (wantsJson(request)) return reply.code(status).send({ error });
  return reply.code(status).type('text/html; charset=utf-8').headers(PAGE_HEADERS).send(loginPage({ error, next, email: field(request.body, 'email') }));
}

/**
 * Sign-in and sign-out (CONTRACT.md "Web application"): `GET /login` is a plain HTML form that
 * works without JavaScript; `POST /login` takes that form or JSON `{email, password}`, sets the
 * session cookie and answers 303 to `/wipes` (or a same-site `next`). No session exists yet to
 * hold a CSRF token, so these two routes refuse cross-site requests by Fetch Metadata / Origin.
 */
export function registerAuthRoutes(app: FastifyInstance, deps: AuthDeps): void {
  app.register(async (scope) => {
    registerFormParser(scope);
    const loginFailures = new FixedWindowCounter(LOGIN_MAX_FAILURES, LOGIN_WINDOW_MS, deps.windows, 'login');
    const addressFailures = new FixedWindowCounter(LOGIN_MAX_FAILURES_PER_ADDRESS, LOGIN_WINDOW_MS, deps.windows, 'login-address');
    const accountFailures = new FixedWindowCounter(LOGIN_MAX_FAILURES_PER_ACCOUNT, LOGIN_WINDOW_MS, deps.windows, 'login-account');
    // Its limit is never reached: only whether a live window exists is read.
    const knownSources = new FixedWindowCounter(Number.MAX_SAFE_INTEGER, KNOWN_SOURCE_MS, deps.windows, 'login-known');

    scope.get('/login', async (request, reply) => {
      const next = safeNext((request.query as Record<string, unknown>).next);
      if (request.signedIn) return reply.code(303).header('location', next ?? '/wipes').send();
      return reply.type('text/html; charset=utf-8').headers(PAGE_HEADERS).send(loginPage({ next }));
    });

    scope.post('/login', async (request, reply) => {
      const next = safeNext(field(request.body, 'next'));
      if (isCrossSite(request)) return refuse(request, reply, 403, 'cross-site sign-in refused', next);
      const outcome = await signIn(
        { db: deps.db, clock: deps.clock, store: sessionStore, loginFailures, addressFailures, accountFailures, knownSources },
        { email: field(request.body, 'email'), password: field(request.body, 'password'), ip: request.ip },
      );
      if (!outcome.ok && outcome.reason === 'rate_limited') {
        const minutes = Math.ceil(outcome.retryAfterSeconds / 60);
        reply.header('retry-after', String(outcome.retryAfterSeconds));
        return refuse(request, reply, 429, `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`, next);
      }
      if (!outcome.ok) return refuse(request, reply, 401, 'Invalid email or password.', next);
      return reply
        .code(303)
        .header('set-cookie', sessionCookie(outcome.cookieValue, (outcome.expiresAt.getTime() - deps.clock.now().getTime()) / 1000, deps.secureCookies))
        .header('location', next ?? '/wipes')
        .send();
    });

    scope.post('/logout', async (request, reply) => {
      if (isCrossSite(request)) return reply.code(403).send({ error: 'cross-site sign-out refused' });
      if (request.signedIn) await signOut({ ...deps, store: sessionStore }, request.signedIn.sessionId);
      return reply.code(303).header('set-cookie', clearedSessionCookie(deps.secureCookies)).header('location', '/login').send();
    });

    /** Who is signed in, the CSRF token the page sends on writes, and (admins) the account state. */
    scope.get('/app/api/me', { preHandler: requireSession }, async (request) => {
      const { user, account, csrfToken } = sessionOf(request);
      return {
        user: { id: user.publicId, email: user.email, role: user.role },
        account: { id: account.publicId, numeric_id: account.id, name: account.name, active: account.active },
        subscription: user.role === 'admin' ? subscriptionNotice({
          active: account.active,
          status: account.subscriptionStatus,
          currentPeriodEnd: account.currentPeriodEnd,
        }) : null,
        csrf_token: csrfToken,
        warnings: deps.warnings ?? [],
      };
    });
  });
}
