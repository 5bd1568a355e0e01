import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from './helpers.js';

describe('sandbox harness: token rows (spec 4.6, 3)', () => {
  let sut: Sandbox;
  beforeEach(async () => {
    sut = await startSandbox();
  });
  afterEach(async () => sut.close());

  it('mints a token with the defaults: engine, active, unlimited, use_count 0, account_active true', async () => {
    const res = await sut.call('POST', '/sandbox/tokens', {});
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      product: 'engine', status: 'active', quota_limit: null, quota_remaining: null, use_count: 0,
      account_active: true, last_seen_at: null, revoked_at: null, account_name: 'Sandbox Account',
    });
    expect(res.json.prefix_id).toMatch(/^ltok_/);
    expect(res.json.account_id).toMatch(/^acct_/);
    expect(res.json.jti).toMatch(/^[0-9a-f-]{36}$/);
    expect(typeof res.json.user_email).toBe('string');
  });

  it('mints with every field given and keeps a given account id', async () => {
    const res = await sut.call('POST', '/sandbox/tokens', {
      account_id: 'acct_demo1', account_name: 'Acme', user_email: 'tech@acme.test', product: 'hotswap', quota_limit: 3, status: 'suspended',
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ account_id: 'acct_demo1', account_name: 'Acme', user_email: 'tech@acme.test', product: 'hotswap', quota_limit: 3, quota_remaining: 3, status: 'suspended' });
  });

  it('lists every token row, newest first', async () => {
    const first = await sut.token({ account_name: 'A' });
    sut.clock.advance(1000);
    const second = await sut.token({ account_name: 'B' });
    const res = await sut.call('GET', '/sandbox/tokens');
    expect(res.status).toBe(200);
    expect(res.json.map((t: any) => t.jti)).toEqual([second.jti, first.jti]);
  });

  it('patches status, quota_limit (null included), use_count and account_active, and the ladder follows', async () => {
    const token = await sut.token({ quota_limit: 2 });
    const patched = await sut.call('PATCH', `/sandbox/tokens/${token.jti}`, { use_count: 2 });
    expect(patched.json).toMatchObject({ use_count: 2, quota_remaining: 0 });
    expect((await sut.internal('/internal/tokens/verify', { jti: token.jti })).json).toMatchObject({ allow: false, reason: 'quota_exceeded' });

    const unlimited = await sut.call('PATCH', `/sandbox/tokens/${token.jti}`, { quota_limit: null });
    expect(unlimited.status).toBe(200);
    expect(unlimited.json).toMatchObject({ quota_limit: null, quota_remaining: null });

    const lapsed = await sut.call('PATCH', `/sandbox/tokens/${token.jti}`, { account_active: false });
    expect(lapsed.json.account_active).toBe(false);
    expect((await sut.internal('/internal/tokens/validate', { jti: token.jti })).json).toMatchObject({ allow: false, reason: 'account_inactive' });

    await sut.call('PATCH', `/sandbox/tokens/${token.jti}`, { account_active: true });
    const revoked = await sut.call('PATCH', `/sandbox/tokens/${token.jti}`, { status: 'revoked' });
    expect(revoked.json.status).toBe('revoked');
    expect(revoked.json.revoked_at).not.toBeNull();
    const verify = await sut.internal('/internal/tokens/verify', { jti: token.jti });
    expect(verify.status).toBe(403);
    expect(verify.json).toMatchObject({ allow: false, status: 'revoked', reason: 'revoked' });
  });

  it('answers 404 for an unknown jti', async () => {
    const res = await sut.call('PATCH', '/sandbox/tokens/00000000-0000-4000-8000-000000000000', { status: 'active' });
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ error: 'unknown token' });
  });

  it.each([
    [{ product: 'laptop' }, 'product must be one of engine, hotswap'],
    [{ quota_limit: -1 }, 'quota_limit must be a non-negative integer or null (unlimited)'],
    [{ quota_limit: 1.5 }, 'quota_limit must be a non-negative integer or null (unlimited)'],
    [{ status: 'paused' }, 'status must be one of active, revoked, suspended, disabled'],
    [{ user_email: 'nope' }, 'user_email must be an email address'],
    [{ account_id: 'acme' }, 'account_id must look like acct_<id>'],
    [{ colour: 'red' }, 'unknown field: colour'],
  ])('refuses a mint of %j with 422', async (body, error) => {
    const res = await sut.call('POST', '/sandbox/tokens', body);
    expect(res.status).toBe(422);
    expect(res.json).toEqual({ error });
  });

  it.each([
    [{}, 'nothing to change: send any of status, quota_limit, use_count, account_active'],
    [{ use_count: -2 }, 'use_count must be a non-negative integer'],
    [{ account_active: 'no' }, 'account_active must be true or false'],
    [{ quota_limit: 'many' }, 'quota_limit must be a non-negative integer or null (unlimited)'],
    [{ jti: 'x' }, 'unknown field: jti'],
  ])('refuses a patch of %j with 422', async (body, error) => {
    const token = await sut.token();
    const res = await sut.call('PATCH', `/sandbox/tokens/${token.jti}`, body);
    expect(res.status).toBe(422);
    expect(res.json).toEqual({ error });
  });
});
