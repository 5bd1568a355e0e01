import { createUser, type Role } from '../src/adapters/db/users.js';
import { hashPassword } from '../src/adapters/passwords.js';
import { fingerprint, issueCheckin, type Cloud } from './helpers.js';

export const PASSWORD = 'correct horse battery';

/** A user who can sign in with {@link PASSWORD}. */
export async function addUser(cloud: Cloud, accountId: number, role: Role, email = `${role}-${accountId}@example.com`) {
  return createUser(cloud.db, {
    accountId,
    email,
    passwordHash: await hashPassword(PASSWORD),
    role,
    now: cloud.clock.now().toISOString(),
  });
}

export interface Browser {
  cookie: string;
  csrf: string;
  get(url: string, headers?: Record<string, string>): Promise<{ status: number; json: any; text: string; headers: Record<string, unknown> }>;
  send(method: 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown, options?: { csrf?: string | null }): Promise<{ status: number; json: any; text: string; headers: Record<string, unknown> }>;
}

const parse = (text: string) => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** Signs in with JSON and returns a client carrying the session cookie and CSRF token. */
export async function signIn(cloud: Cloud, email: string, password = PASSWORD): Promise<Browser> {
  const res = await cloud.app.inject({ method: 'POST', url: '/login', payload: { email, password } });
  if (res.statusCode !== 303) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
  const cookie = String(res.headers['set-cookie']).split(';')[0]!;
  const me = await cloud.app.inject({ method: 'GET', url: '/app/api/me', headers: { cookie } });
  const csrf = me.json().csrf_token as string;
  const wrap = (r: { statusCode: number; body: string; headers: Record<string, unknown> }) => ({
    status: r.statusCode,
    json: parse(r.body),
    text: r.body,
    headers: r.headers,
  });
  return {
    cookie,
    csrf,
    get: async (url, headers = {}) => wrap(await cloud.app.inject({ method: 'GET', url, headers: { cookie, ...headers } })),
    send: async (method, url, body, options = {}) => {
      const token = options.csrf === undefined ? csrf : options.csrf;
      const headers: Record<string, string> = { cookie, ...(token === null ? {} : { 'x-csrf-token': token }) };
      if (body !== undefined) headers['content-type'] = 'application/json';
      return wrap(await cloud.app.inject({ method, url, headers, payload: body === undefined ? undefined : JSON.stringify(body) }));
    },
  };
}

/**
 * An account's admin (`admin@acme.test`) and technician (`tech@acme.test`), each signed in: the
 * two roles an admin-only settings route tells apart.
 */
export async function adminAndTechnician(cloud: Cloud, accountId: number): Promise<{ admin: Browser; technician: Browser }> {
  await addUser(cloud, accountId, 'admin', 'admin@acme.test');
  await addUser(cloud, accountId, 'technician', 'tech@acme.test');
  return { admin: await signIn(cloud, 'admin@acme.test'), technician: await signIn(cloud, 'tech@acme.test') };
}

/** Reports a machine through the internal API, as a device would. */
export async function reportAsset(cloud: Cloud, jti: string, recordId: string, fp: object = fingerprint()) {
  const res = await cloud.post('/internal/assets', { jti, record_id: recordId, engine_version: '1.4.0', fingerprint: fp });
  if (res.status !== 201) throw new Error(`asset report failed: ${res.status} ${res.text}`);
  return res.json.asset_id as string;
}

/** Reports one wipe result through the internal API. */
export async function reportWipe(cloud: Cloud, jti: string, fields: Record<string, unknown>) {
  if (typeof fields.job_id === 'string') await issueCheckin(cloud.db, jti, fields.job_id);
  const res = await cloud.post('/internal/wipe_results', {
    jti,
    drive_model: 'SAMSUNG MZVLB512HAJQ',
    drive_serial: 'S4DYNX0M123456',
    drive_capacity_gb: 512,
    wipe_method: 'NIST 800-88 R2 Purge',
    started_at: '2026-11-22T10:00:00Z',
    completed_at: '2026-11-22T10:12:30Z',
    ...fields,
  });
  if (res.status !== 201) throw new Error(`wipe report failed: ${res.status} ${res.text}`);
  return res.json.wipe_result_id as string;
}
