import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SECRET, startCloud, type Cloud } from '../helpers.js';
import { freshSigner } from '../support/fresh-signer.js';

const VERIFY = '/internal/tokens/verify';
const VALIDATE = '/internal/tokens/validate';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const useCount = async (cloud: Cloud, jti: string) =>
  (await cloud.db.one<{ use_count: number }>('SELECT use_count FROM license_tokens WHERE jti = @jti', { jti }))!.use_count;

describe('verify and validate: the decision ladder (spec 3)', () => {
  let cloud: Cloud;
  beforeEach(async () => {
    cloud = await startCloud();
  });
  afterEach(() => cloud.close());

  describe.each([VERIFY, VALIDATE])('%s', (url) => {
    it('denies a disabled token 403 disabled, even when every other rung would deny too', async () => {
      const acct = await cloud.account('Lapsed', 'canceled');
      const token = await cloud.token(acct.id, { status: 'disabled', quota: 0 });
      const res = await cloud.post(url, { jti: token.jti });
      expect(res.status).toBe(403);
      expect(res.json).toEqual({ allow: false, status: 'disabled', reason: 'disabled', quota_remaining: 0 });
    });

    it('denies a revoked token 403 revoked before suspended or account state', async () => {
      const acct = await cloud.account('Lapsed', 'canceled');
      const token = await cloud.token(acct.id, { status: 'revoked' });
      const res = await cloud.post(url, { jti: token.jti });
      expect(res.status).toBe(403);
      expect(res.json).toEqual({ allow: false, status: 'revoked', reason: 'revoked', quota_remaining: null });
    });

    it('denies a suspended token 403 suspended before account state', async () => {
      const acct = await cloud.account('Lapsed', 'unpaid');
      const token = await cloud.token(acct.id, { status: 'suspended' });
      const res = await cloud.post(url, { jti: token.jti });
      expect(res.status).toBe(403);
      expect(res.json.reason).toBe('suspended');
    });

    it('denies a lapsed account 403 account_inactive before quota', async () => {
      const acct = await cloud.account('Lapsed', 'canceled');
      const token = await cloud.token(acct.id, { quota: 0 });
      const res = await cloud.post(url, { jti: token.jti });
      expect(res.status).toBe(403);
      expect(res.json).toEqual({ allow: false, status: 'active', reason: 'account_inactive', quota_remaining: 0 });
    });

    it('denies an exhausted quota 403 quota_exceeded', async () => {
      const token = await cloud.token((await cloud.account()).id, { quota: 0 });
      const res = await cloud.post(url, { jti: token.jti });
      expect(res.status).toBe(403);
      expect(res.json).toEqual({ allow: false, status: 'active', reason: 'quota_exceeded', quota_remaining: 0 });
    });

    it('answers 404 not_found for an unknown jti', async () => {
      const res = await cloud.post(url, { jti: '2f1d6c1e-0000-4000-8000-000000000000' });
      expect(res.status).toBe(404);
      expect(res.json).toEqual({ allow: false, status: 'unknown', reason: 'not_found' });
    });

    it('answers 404 not_found for a missing token', async () => {
      const res = await cloud.post(url, {});
      expect(res.status).toBe(404);
      expect(res.json).toEqual({ allow: false, status: 'unknown', reason: 'not_found' });
    });

    it('answers 404 not_found when account_id is not the token’s account, never a widened lookup', async () => {
      const mine = await cloud.account('Mine');
      const other = await cloud.account('Other');
      const token = await cloud.token(mine.id);
      for (const accountId of [other.publicId, String(other.id)]) {
        const res = await cloud.post(url, { jti: token.jti, account_id: accountId });
        expect(res.status).toBe(404);
        expect(res.json.reason).toBe('not_found');
      }
      expect(await useCount(cloud, token.jti)).toBe(0);
    });

    it('answers 404 not_found for an account_id that is not a string (number, null, array)', async () => {
      const mine = await cloud.account('Mine');
      const other = await cloud.account('Other');
      const token = await cloud.token(mine.id);
      for (const accountId of [other.id, mine.id, null, [mine.publicId]]) {
        const res = await cloud.post(url, { jti: token.jti, account_id: accountId });
        expect(res.status, JSON.stringify(accountId)).toBe(404);
      }
      expect(await useCount(cloud, token.jti)).toBe(0);
    });

    it('accepts the token’s own account_id as acct_ id or numeric id', async () => {
      const acct = await cloud.account();
      const token = await cloud.token(acct.id);
      expect((await cloud.post(url, { jti: token.jti, account_id: acct.publicId })).status).toBe(200);
      expect((await cloud.post(url, { jti: token.jti, account_id: String(acct.id) })).status).toBe(200);
    });

    it('treats a trialing or past_due subscription as an active account', async () => {
      for (const status of ['trialing', 'past_due'] as const) {
        const token = await cloud.token((await cloud.account(status, status)).id);
        expect((await cloud.post(url, { jti: token.jti })).status).toBe(200);
      }
    });
  });

  it('verify allowed answers account and quota_remaining, never job_id', async () => {
    const acct = await cloud.account('Acme Refurb');
    const token = await cloud.token(acct.id, { quota: 5 });
    const res = await cloud.post(VERIFY, { jti: token.jti, account_id: acct.publicId });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ allow: true, status: 'active', account: 'Acme Refurb', quota_remaining: 5 });
  });

  it('verify allowed bumps last_seen_at only; quota untouched', async () => {
    const token = await cloud.token((await cloud.account()).id, { quota: 2 });
    cloud.clock.set('2026-11-22T12:30:00.000Z');
    await cloud.post(VERIFY, { jti: token.jti });
    await cloud.post(VERIFY, { jti: token.jti });
    const row = await cloud.db.one('SELECT use_count, last_seen_at FROM license_tokens WHERE jti = @jti', { jti: token.jti });
    expect(row).toEqual({ use_count: 0, last_seen_at: '2026-11-22T12:30:00.000Z' });
  });

  it('verify denied leaves last_seen_at alone', async () => {
    const token = await cloud.token((await cloud.account()).id, { status: 'suspended' });
    await cloud.post(VERIFY, { jti: token.jti });
    expect((await cloud.db.one<{ last_seen_at: string | null }>('SELECT last_seen_at FROM license_tokens WHERE jti = @jti', { jti: token.jti }))!.last_seen_at).toBeNull();
  });

  it('validate allowed answers a job_id UUID and quota_remaining after the increment, never account', async () => {
    const token = await cloud.token((await cloud.account()).id, { quota: 3 });
    const res = await cloud.post(VALIDATE, { jti: token.jti });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ allow: true, status: 'active', quota_remaining: 2, job_id: expect.stringMatching(UUID) });
    expect(await useCount(cloud, token.jti)).toBe(1);
  });

  it('validate meters an unlimited token and reports quota_remaining null', async () => {
    const token = await cloud.token((await cloud.account()).id);
    const first = await cloud.post(VALIDATE, { jti: token.jti });
    const second = await cloud.post(VALIDATE, { jti: token.jti });
    expect(first.json.quota_remaining).toBeNull();
    expect(second.json.job_id).not.toBe(first.json.job_id);
    expect(await useCount(cloud, token.jti)).toBe(2);
  });

  it('validate denies the check-in after the last unit of quota', async () => {
    const token = await cloud.token((await cloud.account()).id, { quota: 1 });
    expect((await cloud.post(VALIDATE, { jti: token.jti })).json.quota_remaining).toBe(0);
    const res = await cloud.post(VALIDATE, { jti: token.jti });
    expect(res.status).toBe(403);
    expect(res.json.reason).toBe('quota_exceeded');
  });

  it('revocation takes effect on the very next call', async () => {
    const token = await cloud.token((await cloud.account()).id);
    expect((await cloud.post(VERIFY, { jti: token.jti })).status).toBe(200);
    await cloud.db.run("UPDATE license_tokens SET status = 'revoked' WHERE jti = @jti", { jti: token.jti });
    expect((await cloud.post(VERIFY, { jti: token.jti })).json.reason).toBe('revoked');
  });
});

describe('validate under concurrency', () => {
  it('allows exactly 10 of 60 parallel check-ins against a quota of 10 over real HTTP', async () => {
    const cloud = await startCloud();
    try {
      const token = await cloud.token((await cloud.account()).id, { quota: 10 });
      const base = await cloud.app.listen({ host: '127.0.0.1', port: 0 });
      const payload = JSON.stringify({ jti: token.jti });
      // 60 forwards from the gateway: each signed afresh (the cloud accepts a signature once).
      const sign = freshSigner(SECRET);
      const responses = await Promise.all(
        Array.from({ length: 60 }, () =>
          fetch(`${base}${VALIDATE}`, {
            method: 'POST',
            body: payload,
            headers: {
              'content-type': 'application/json',
              ...sign(payload, Math.floor(cloud.clock.now().getTime() / 1000)),
            },
          }).then(async (r) => ({ status: r.status, body: (await r.json()) as { job_id?: string; reason?: string } })),
        ),
      );
      const allowed = responses.filter((r) => r.status === 200);
      expect(allowed).toHaveLength(10);
      expect(new Set(allowed.map((r) => r.body.job_id)).size).toBe(10);
      expect(responses.filter((r) => r.status === 403).every((r) => r.body.reason === 'quota_exceeded')).toBe(true);
      expect(await useCount(cloud, token.jti)).toBe(10);
      expect((await cloud.db.one<{ n: number }>('SELECT COUNT(*) AS n FROM checkins'))!.n).toBe(10);
    } finally {
      await cloud.close();
    }
  });
});
