import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { SqlDatabase } from '../../adapters/sql/database.js';
import type * as SessionsDb from '../../adapters/db/sessions.js';
import type { SessionRow } from '../../adapters/db/sessions.js';
import type * as UsersDb from '../../adapters/db/users.js';
import type * as Passwords from '../../adapters/passwords.js';

/** The repository and password functions sign-in calls (adapters/db/session-store.ts). */
export type SessionStore = Pick<typeof SessionsDb, 'createSession' | 'deleteExpiredSessions' | 'endSession' | 'findLiveSession'> &
  Pick<typeof UsersDb, 'findUserByEmail'> &
  Pick<typeof Passwords, 'verifyPassword'>;
import type { FixedWindowCounter } from '../rate-limit/fixed-window.js';

/** A session lives 12 hours from sign-in: one working shift, then sign in again. */
export const SESSION_LIFETIME_MS = 12 * 60 * 60 * 1000;
/** Five failed attempts per email and address within 15 minutes, then 429 until the window ends. */
export const LOGIN_MAX_FAILURES = 5;
/**
 * Twenty failed attempts per address within 15 minutes, whatever the emails: password spraying
 * (one password tried against many emails) never trips the per-email limit.
 */
export const LOGIN_MAX_FAILURES_PER_ADDRESS = 20;
/**
 * Ten failed attempts at one account within 15 minutes, from any number of addresses: past that,
 * only addresses the account has signed in from before get their password checked (see signIn).
 */
export const LOGIN_MAX_FAILURES_PER_ACCOUNT = 10;
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
/** An address an account signed in from stays known to it for 30 days after its latest sign-in there. */
export const KNOWN_SOURCE_MS = 30 * 24 * 60 * 60 * 1000;

// Checked when the email is unknown, so an unknown address costs the same scrypt time as a
// wrong password and response timing does not reveal which emails have accounts.
const DUMMY_HASH = 'scrypt$32768$8$1$wliRdnll7xQwEC2lAVDNbw==$mYxS6DCMlntBzE7ErylBMDk6VMjRhnw64DqHWBFoA/U=';

export interface SessionDeps {
  db: SqlDatabase;
  clock: Clock;
  store: SessionStore;
  /** Failed sign-ins per `email|ip`. */
  loginFailures: FixedWindowCounter;
  /** Failed sign-ins per client address, any email. */
  addressFailures: FixedWindowCounter;
  /** Failed sign-ins per email, any address. */
  accountFailures: FixedWindowCounter;
  /** `email|ip` pairs that signed in successfully (a window of {@link KNOWN_SOURCE_MS}; its count is unused). */
  knownSources: FixedWindowCounter;
}

export type SignInOutcome =
  | { ok: true; cookieValue: string; expiresAt: Date }
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'rate_limited'; retryAfterSeconds: number };

/** The cookie value is 256 random bits; only its SHA-256 is stored. */
export const hashSessionToken = (value: string): string => createHash('sha256').update(value).digest('hex');

const accountKey = (email: string) => email.trim().toLowerCase();
const failureKey = (email: string, ip: string) => `${accountKey(email)}|${ip}`;

/**
 * Checks email and password and opens a session. Failures count per email and client address,
 * and per address alone; past either limit every attempt (even a right one) is refused until
 * that window ends, so a guesser cannot learn the password by watching for a success. A success
 * clears the email's count, not the address's: one known account must not reset a spray.
 *
 * Failures also count per account, from every address together (issue 28 item 2; OWASP's
 * authentication cheat sheet): otherwise four addresses get 4 × 5 guesses at one account, and a
 * botnet as many as it has addresses. Past {@link LOGIN_MAX_FAILURES_PER_ACCOUNT}, attempts at
 * that account are refused unchecked, except from an address the account has signed in from
 * before (kept {@link KNOWN_SOURCE_MS}): the real user at their usual desk still signs in with the
 * right password, while guesses from anywhere else are throttled to ten per account per window.
 * Those known addresses still have their own limit of five. Locking the account outright would
 * hand an attacker a way to lock anyone out; this refuses only unknown addresses, only while the
 * account is under attack, and an unknown email behaves exactly like a real one.
 *
 * Every attempt is counted before its password is checked, each count one atomic statement, and
 * a success takes its count back: a check made first and counted after the slow password hash
 * would let a burst of parallel guesses all pass it, on any number of instances.
 */
export async function signIn(
  deps: SessionDeps,
  input: { email: unknown; password: unknown; ip: string },
): Promise<SignInOutcome> {
  const email = typeof input.email === 'string' ? input.email.trim() : '';
  const password = typeof input.password === 'string' ? input.password : '';
  const key = failureKey(email, input.ip);
  const nowMs = deps.clock.now().getTime();
  const account = accountKey(email);
  const blocked = [await deps.loginFailures.hit(key, nowMs), await deps.addressFailures.hit(input.ip, nowMs)].filter((w) => w.limited);
  // An attempt this address may not make at all is no guess at the account: counting it would let
  // one address, hammering past its own limit, close the account to every other address.
  if (blocked.length === 0) {
    const accountWindow = await deps.accountFailures.hit(account, nowMs);
    if (accountWindow.limited && (await deps.knownSources.peek(key, nowMs)).count === 0) blocked.push(accountWindow);
  }
  if (blocked.length > 0) {
    const resetAt = Math.max(...blocked.map((w) => w.resetAt));
    return { ok: false, reason: 'rate_limited', retryAfterSeconds: Math.max(1, Math.ceil((resetAt - nowMs) / 1000)) };
  }
  const user = email === '' || email.length > 320 ? undefined : await deps.store.findUserByEmail(deps.db, email);
  const matches = await deps.store.verifyPassword(password.slice(0, 1024), user?.password_hash ?? DUMMY_HASH);
  if (!user || !matches) return { ok: false, reason: 'invalid' };
  await deps.loginFailures.reset(key);
  await deps.addressFailures.release(input.ip, nowMs);
  // The account's count keeps the attacker's failures; only this attempt is taken back.
  await deps.accountFailures.release(account, nowMs);
  // Known for KNOWN_SOURCE_MS from this sign-in, not from the first one: a fresh window each time.
  await deps.knownSources.reset(key);
  await deps.knownSources.hit(key, nowMs);
  const now = deps.clock.now();
  const cookieValue = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + SESSION_LIFETIME_MS);
  await deps.db.transaction(async (tx) => {
    await deps.store.deleteExpiredSessions(tx, now.toISOString());
    await deps.store.createSession(tx, {
      tokenHash: hashSessionToken(cookieValue),
      userId: user.id,
      csrfToken: randomBytes(32).toString('base64url'),
      now: now.toISOString(),
      expiresAt: expiresAt.toISOString(),
    });
  });
  return { ok: true, cookieValue, expiresAt };
}

/** The live session a cookie value names, or undefined (unknown, ended or expired). */
export async function lookupSession(deps: Pick<SessionDeps, 'db' | 'clock' | 'store'>, cookieValue: string): Promise<SessionRow | undefined> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(cookieValue)) return undefined;
  return deps.store.findLiveSession(deps.db, hashSessionToken(cookieValue), deps.clock.now().toISOString());
}

export async function signOut(deps: Pick<SessionDeps, 'db' | 'clock' | 'store'>, sessionId: number): Promise<void> {
  await deps.store.endSession(deps.db, sessionId, deps.clock.now().toISOString());
}
