import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/adapters/clock.js';
import { createUser } from '../../src/adapters/db/users.js';
import { mintApiKey, revokeKey } from '../../src/adapters/db/api-key-issuance.js';
import { startListeningCloud, type RunningCloud } from '../e2e/web-fixture.js';
import { startSandbox, type Sandbox } from './helpers.js';

/** A port nothing listens on: bound, read, closed. */
async function deadPort(): Promise<number> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('sandbox API keys and live_request against a real running cloud (spec 4.6, 5.5)', () => {
  let cloud: RunningCloud;
  let sut: Sandbox;
  let apiKey = '';
  let keyId = '';
  let account: { id: number; publicId: string };

  beforeAll(async () => {
    cloud = await startListeningCloud();
    account = await cloud.account('Real Refurb Ltd');
    const user = await createUser(cloud.db, { accountId: account.id, email: 'owner@real.test', passwordHash: 'x', role: 'admin', now: new Date().toISOString() });
    const userRow = (await cloud.db.one<{ id: number }>('SELECT id FROM users WHERE public_id = @public_id', { public_id: user.id }))!;
    const minted = await mintApiKey({ db: cloud.db, clock: systemClock }, { accountId: account.id, name: 'sandbox', createdByUserId: userRow.id });
    apiKey = minted.apiKey;
    keyId = minted.row.public_id;
    sut = await startSandbox({ webappBaseUrl: cloud.base });
  });
  afterAll(async () => {
    await sut?.close();
    await cloud?.close();
  });

  const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

  it('defaults minted tokens and webhooks to the real account of a valid key', async () => {
    const token = await sut.call('POST', '/sandbox/tokens', {}, bearer(apiKey));
    expect(token.status).toBe(201);
    expect(token.json).toMatchObject({ account_id: account.publicId, account_name: 'Real Refurb Ltd', user_email: 'owner@real.test', account_active: true });
    const hook = await sut.call('POST', '/sandbox/webhooks', { event_type: 'asset_reported' }, bearer(apiKey));
    expect(hook.status).toBe(201);
    expect(hook.json.account_id).toBe(account.publicId);
    // Explicit fields still win over the key's defaults.
    const explicit = await sut.call('POST', '/sandbox/tokens', { account_name: 'Renamed', user_email: 'other@real.test' }, bearer(apiKey));
    expect(explicit.json).toMatchObject({ account_id: account.publicId, account_name: 'Renamed', user_email: 'other@real.test' });
  });

  it('answers 401 with the spec body for a key the webapp rejects', async () => {
    const res = await sut.call('GET', '/sandbox/tokens', undefined, bearer('ek_not-a-real-key'));
    expect(res).toEqual({ status: 401, json: { error: 'invalid API key (webapp rejected it)' } });
  });

  it('caches a verdict for 60 seconds: a revoked key keeps working until the cache expires', async () => {
    const minted = await mintApiKey({ db: cloud.db, clock: systemClock }, { accountId: account.id, name: 'short-lived', createdByUserId: null });
    expect((await sut.call('GET', '/sandbox/tokens', undefined, bearer(minted.apiKey))).status).toBe(200);
    await revokeKey({ db: cloud.db, clock: systemClock }, minted.row.public_id);
    sut.clock.advance(59_000);
    expect((await sut.call('GET', '/sandbox/tokens', undefined, bearer(minted.apiKey))).status).toBe(200);
    sut.clock.advance(2_000);
    expect((await sut.call('GET', '/sandbox/tokens', undefined, bearer(minted.apiKey))).status).toBe(401);
  });

  it('runs anonymous without a header', async () => {
    expect((await sut.call('GET', '/sandbox/tokens')).status).toBe(200);
  });

  it('passes the real public API answer through live_request', async () => {
    const res = await sut.call('POST', '/sandbox/live_request', { base_url: cloud.base, api_key: apiKey, path: '/api/v1/accounts' }, bearer(apiKey));
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ status: 200, ok: true });
    expect(res.json.body.accounts[0]).toMatchObject({ id: account.publicId, name: 'Real Refurb Ltd' });
    const query = await sut.call('POST', '/sandbox/live_request', { base_url: cloud.base, api_key: apiKey, path: '/api/v1/assets', query: { since: 'yesterday' } }, bearer(apiKey));
    expect(query.json.status).toBe(422);
    expect(query.json.ok).toBe(false);
    expect(query.json.body.error).toContain('since');
    // The caller is signed in with a valid key; the key sent on is the one the real API judges.
    const rejected = await sut.call('POST', '/sandbox/live_request', { base_url: cloud.base, api_key: 'ek_wrong', path: '/api/v1/me' }, bearer(apiKey));
    expect(rejected.json).toEqual({ status: 401, ok: false, body: null });
    expect(keyId).toMatch(/^key_/);
  });

  it('refuses a bad base_url or a path outside /api/ with 422, and an unreachable target with 502', async () => {
    const call = (body: object) => sut.call('POST', '/sandbox/live_request', { api_key: apiKey, ...body }, bearer(apiKey));
    expect(await call({ base_url: 'not a url', path: '/api/v1/me' })).toEqual({ status: 422, json: { error: 'base_url must be an absolute http:// or https:// URL' } });
    expect(await call({ base_url: 'file:///etc', path: '/api/v1/me' })).toMatchObject({ status: 422 });
    expect(await call({ base_url: cloud.base, path: '/internal/tokens/verify' })).toEqual({ status: 422, json: { error: 'path must start with /api/' } });
    expect(await call({ base_url: cloud.base, path: '/api/../internal/tokens/verify' })).toEqual({ status: 422, json: { error: 'path must start with /api/' } });
    const unreachable = await call({ base_url: `http://127.0.0.1:${await deadPort()}`, path: '/api/v1/me' });
    expect(unreachable).toEqual({ status: 502, json: { error: 'live request failed: could not connect' } });
  });
});

describe('sandbox API keys when the web application fails', () => {
  it('answers 502, not 401, when the web application answers 5xx, and does not cache it', async () => {
    let status = 500;
    const webapp: Server = createServer((request, response) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(
        status === 200
          ? JSON.stringify(request.url === '/api/v1/me' ? { account_id: 'acct_x', account_name: 'X Ltd', user_email: 'x@x.test' } : { accounts: [{ id: 'acct_x', name: 'X Ltd' }] })
          : '{"error":"boom"}',
      );
    });
    await new Promise<void>((resolve) => webapp.listen(0, '127.0.0.1', resolve));
    const sut = await startSandbox({ webappBaseUrl: `http://127.0.0.1:${(webapp.address() as AddressInfo).port}` });
    try {
      const failing = await sut.call('POST', '/sandbox/tokens', {}, { authorization: 'Bearer some-key' });
      expect(failing.status).toBe(502);
      status = 200;
      const recovered = await sut.call('POST', '/sandbox/tokens', {}, { authorization: 'Bearer some-key' });
      expect(recovered.status).toBe(201);
      expect(recovered.json.account_id).toBe('acct_x');
    } finally {
      await sut.close();
      await new Promise<void>((resolve) => webapp.close(() => resolve()));
    }
  });
});
