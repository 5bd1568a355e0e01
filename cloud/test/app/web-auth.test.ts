import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startCloud, type Cloud } from '../helpers.js';
import { addUser, PASSWORD, signIn } from '../web-helpers.js';

describe('sign-in, sessions and CSRF (CONTRACT.md "Web application")', () => {
  let cloud: Cloud;
  let account: Awaited<ReturnType<Cloud['account']>>;
  beforeEach(async () => {
    cloud = await startCloud();
    account = await cloud.account('Acme Refurb');
    await addUser(cloud, account.id, 'admin', 'ana@acme.test');
  });
  afterEach(() => cloud.close());

  const login = (payload: string | object, headers: Record<string, string> = {}) =>
    cloud.app.inject({
      method: 'POST',
      url: '/login',
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
      headers: { 'content-type': typeof payload === 'string' ? 'application/x-www-form-urlencoded' : 'application/json', ...headers },
    });

  it('GET /login is a plain HTML form posting email and password to /login', async () => {
    const res = await cloud.app.inject({ method: 'GET', url: '/login' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toMatch(/<form method="post" action="\/login">/);
    expect(res.body).toMatch(/name="email"/);
    expect(res.body).toMatch(/name="password"/);
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('POST /login with JSON sets an HttpOnly SameSite=Lax cookie and answers 303 to /wipes', async () => {
    const res = await login({ email: 'ana@acme.test', password: PASSWORD });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/wipes');
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/^erasure_session=[\w-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=43200$/);
    // Only a hash of the cookie value is stored.
    const value = cookie.split(';')[0]!.split('=')[1]!;
    const stored = (await cloud.db.many<{ token_hash: string }>('SELECT token_hash FROM sessions')).map((row) => row.token_hash);
    expect(stored).toHaveLength(1);
    expect(stored[0]).not.toContain(value);
  });

  it('POST /login with a form works too, case-insensitively on the email, and follows a same-site next', async () => {
    const res = await login('email=ANA%40acme.test&password=correct+horse+battery&next=%2Fdevices');
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/devices');
    const offsite = await login('email=ana%40acme.test&password=correct+horse+battery&next=%2F%2Fevil.example');
    expect(offsite.headers.location).toBe('/wipes');
  });

  it('marks the cookie Secure when PUBLIC_BASE_URL is https', async () => {
    const secure = await startCloud({ deps: { publicBaseUrl: 'https://erasure.example' } });
    try {
      await addUser(secure, (await secure.account()).id, 'admin', 'bo@acme.test');
      const res = await secure.app.inject({ method: 'POST', url: '/login', payload: { email: 'bo@acme.test', password: PASSWORD } });
      expect(String(res.headers['set-cookie'])).toMatch(/; Secure$/);
    } finally {
      await secure.close();
    }
  });

  it('refuses a wrong password or unknown email alike: 401 JSON, or the form again with a message', async () => {
    for (const body of [{ email: 'ana@acme.test', password: 'wrong password' }, { email: 'nobody@acme.test', password: PASSWORD }]) {
      const res = await login(body);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'Invalid email or password.' });
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    const form = await login('email=ana%40acme.test&password=nope');
    expect(form.statusCode).toBe(401);
    expect(form.body).toMatch(/Invalid email or password/);
    expect(form.body).toMatch(/value="ana@acme.test"/);
  });

  it('rate-limits sign-in: 5 failures per email and address in 15 minutes, then 429 even for the right password', async () => {
    for (let i = 0; i < 5; i++) expect((await login({ email: 'ana@acme.test', password: `guess ${i}` })).statusCode).toBe(401);
    const blocked = await login({ email: 'ana@acme.test', password: PASSWORD });
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(800);
    expect(blocked.json().error).toMatch(/Too many failed sign-in attempts/);
    // Another address is not locked out by someone else's guessing.
    expect((await login({ email: 'ana@acme.test', password: PASSWORD }, { 'x-forwarded-for': '1.2.3.4' })).statusCode).toBe(429);
    const elsewhere = await cloud.app.inject({
      method: 'POST',
      url: '/login',
      payload: { email: 'ana@acme.test', password: PASSWORD },
      remoteAddress: '10.0.0.9',
    });
    expect(elsewhere.statusCode).toBe(303);
    cloud.clock.advance(15 * 60_000);
    expect((await login({ email: 'ana@acme.test', password: PASSWORD })).statusCode).toBe(303);
  });

  it('rate-limits a burst of parallel sign-ins as one after another: 5 are checked, the rest answered 429', async () => {
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => login({ email: 'ana@acme.test', password: `guess ${i}` })));
    const codes = answers.map((res) => res.statusCode).sort();
    expect(codes).toEqual([...Array(5).fill(401), ...Array(7).fill(429)]);
  });

  it('does not count a successful sign-in against its address', async () => {
    for (let i = 0; i < 25; i++) {
      const res = await cloud.app.inject({ method: 'POST', url: '/login', payload: { email: 'ana@acme.test', password: PASSWORD }, remoteAddress: '10.0.0.7' });
      expect(res.statusCode).toBe(303);
    }
  });

  it('refuses a cross-site sign-in or sign-out (no CSRF token exists yet to check)', async () => {
    const res = await login({ email: 'ana@acme.test', password: PASSWORD }, { origin: 'https://evil.example' });
    expect(res.statusCode).toBe(403);
    const fetchMeta = await login({ email: 'ana@acme.test', password: PASSWORD }, { 'sec-fetch-site': 'cross-site' });
    expect(fetchMeta.statusCode).toBe(403);
    const browser = await signIn(cloud, 'ana@acme.test');
    const out = await cloud.app.inject({ method: 'POST', url: '/logout', headers: { cookie: browser.cookie, origin: 'https://evil.example' } });
    expect(out.statusCode).toBe(403);
    expect((await browser.get('/app/api/me')).status).toBe(200);
  });

  it('sends a page without a session to /login, and answers 401 JSON on /app/api', async () => {
    const page = await cloud.app.inject({ method: 'GET', url: '/wipes?sort=model_asc', headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(303);
    expect(page.headers.location).toBe('/login?next=%2Fwipes%3Fsort%3Dmodel_asc');
    const api = await cloud.app.inject({ method: 'GET', url: '/app/api/wipes' });
    expect(api.statusCode).toBe(401);
    expect(api.json()).toEqual({ error: 'sign in required' });
    const forged = await cloud.app.inject({ method: 'GET', url: '/app/api/me', headers: { cookie: `erasure_session=${'a'.repeat(43)}` } });
    expect(forged.statusCode).toBe(401);
  });

  it('POST /logout ends the session: the old cookie stops working', async () => {
    const browser = await signIn(cloud, 'ana@acme.test');
    expect((await browser.get('/app/api/me')).json).toMatchObject({
      user: { email: 'ana@acme.test', role: 'admin' },
      account: { id: account.publicId, name: 'Acme Refurb' },
    });
    const out = await browser.send('POST', '/logout');
    expect(out.status).toBe(303);
    expect(out.headers.location).toBe('/login');
    expect(String(out.headers['set-cookie'])).toMatch(/Max-Age=0/);
    expect((await browser.get('/app/api/me')).status).toBe(401);
  });

  it('expires a session 12 hours after sign-in', async () => {
    const browser = await signIn(cloud, 'ana@acme.test');
    cloud.clock.advance(12 * 3600_000 - 1000);
    expect((await browser.get('/app/api/me')).status).toBe(200);
    cloud.clock.advance(1000);
    expect((await browser.get('/app/api/me')).status).toBe(401);
  });

  it('refuses a write without the session’s CSRF token (header or _csrf field), or with another session’s', async () => {
    const browser = await signIn(cloud, 'ana@acme.test');
    const other = await signIn(cloud, 'ana@acme.test');
    for (const csrf of [null, '', 'x'.repeat(43), other.csrf]) {
      const res = await browser.send('POST', '/app/api/api-keys', { name: 'ci' }, { csrf });
      expect(res.status).toBe(403);
      expect(res.json).toEqual({ error: 'invalid CSRF token' });
    }
    expect((await cloud.db.one<{ n: number }>('SELECT count(*) AS n FROM api_keys'))!.n).toBe(0);
    expect((await browser.send('POST', '/app/api/api-keys', { name: 'ci' })).status).toBe(201);
    const form = await cloud.app.inject({
      method: 'PUT',
      url: '/app/api/integrations/push',
      headers: { cookie: browser.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `url=https%3A%2F%2Fhooks.example%2Fin&_csrf=${browser.csrf}`,
    });
    expect(form.statusCode).toBe(200);
  });

  it('keeps admin-only writes to admins', async () => {
    await addUser(cloud, account.id, 'technician', 'tech@acme.test');
    const tech = await signIn(cloud, 'tech@acme.test');
    const res = await tech.send('POST', '/app/api/api-keys', { name: 'ci' });
    expect(res.status).toBe(403);
    expect((await tech.get('/app/api/me')).json.subscription).toBeNull();
  });

  it('shows admins the account state derived from the subscription', async () => {
    const admin = await signIn(cloud, 'ana@acme.test');
    expect((await admin.get('/app/api/me')).json.subscription).toMatchObject({ active: true, status: 'active', tone: 'ok' });
    await cloud.db.run("UPDATE accounts SET subscription_status = 'past_due', current_period_end = '2026-12-01T00:00:00Z'");
    expect((await admin.get('/app/api/me')).json.subscription).toMatchObject({
      active: true,
      tone: 'warning',
      message: 'Payment past due: devices keep working during the grace period until 2026-12-01.',
    });
    cloud.clock.set('2026-12-02T00:00:00.000Z');
    expect((await admin.get('/app/api/me')).status).toBe(401); // the 12 h session ran out meanwhile
    const again = await signIn(cloud, 'ana@acme.test');
    expect((await again.get('/app/api/me')).json.subscription).toMatchObject({ active: false, tone: 'danger' });
  });
});
