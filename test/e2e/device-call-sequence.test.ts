import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordIdAt } from '@erasure/shared';
import { startStack, stopService, wipeResultBody } from '../support/stack.js';

type Stack = Awaited<ReturnType<typeof startStack>>;

/**
 * Spec 1.9 end to end: a device token minted by the admin CLI walks the healthy call sequence
 * through a real gateway and a real cloud, each started from its binary, on SQLite and (in the
 * `cloud on postgres` project) on PostgreSQL.
 */
describe('healthy device call sequence through gateway and cloud', () => {
  let stack: Stack;
  let account: { id: string; name: string };
  let token: string;
  let jti: string;
  const recordId = recordIdAt(new Date());

  const call = async (path: string, body?: unknown, bearer = token) => {
    const res = await fetch(`${stack.gateway.url}${path}`, {
      method: body === undefined && path === '/api/health' ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${bearer}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };

  beforeAll(async () => {
    stack = await startStack();
    account = await stack.cli('admin', 'create-account', '--name', 'Ωmega Recyclers');
    const minted = await stack.cli('admin', 'mint-device-token', '--account', account.id, '--quota', '2', '--user-email', 'ana@omega.test');
    token = minted.token;
    jti = minted.jti;
  }, 60_000);
  afterAll(() => stack?.stop());

  it('1. GET /api/health answers 200 {ok: true}', async () => {
    expect(await call('/api/health')).toEqual({ status: 200, body: { ok: true } });
  });

  it('2. POST /api/verify unlocks: allow with the account name, unmetered', async () => {
    expect(await call('/api/verify')).toEqual({ status: 200, body: { allow: true, account: 'Ωmega Recyclers', quota_remaining: 2 } });
  });

  it('3. POST /api/record reports the machine once per boot', async () => {
    const res = await call('/api/record', {
      record_id: recordId,
      engine_version: '1.0.0',
      fingerprint: {
        system: { manufacturer: 'LENOVO', product: '20L5CTO1WW', serial: 'PF1ABCDE', uuid: '6b2a1f00-1111-4222-8333-444455556666' },
        storage: [{ model: 'SAMSUNG MZVLB512HBJQ-000L7', serial: 'S4ENNX0N123456', size_bytes: 512_110_190_592, media_type: 'SSD' }],
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ ok: true, asset_id: expect.stringMatching(/^asset_/) });
  });

  it('notes and hardware test snapshots attach to the boot’s asset', async () => {
    expect((await call('/api/notes', { record_id: recordId, notes: 'Lid scratched' })).body).toMatchObject({ ok: true });
    const tests = await call('/api/tests', { record_id: recordId, tests: { keyboard: { status: 'passed' }, bluetooth: { status: 'detected' } } });
    expect(tests).toMatchObject({ status: 200, body: { ok: true } });
  });

  it('4. POST /api/checkin meters one unit and hands out a job_id', async () => {
    const res = await call('/api/checkin');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ allow: true, job_id: expect.stringMatching(/^[0-9a-f-]{36}$/), quota_remaining: 1 });
    jobId = res.body.job_id;
  });
  let jobId = '';

  it('5. POST /api/wipe_result once per drive, suffixed job ids, idempotent on job_id', async () => {
    const record = (drive: number, extra: object = {}) => wipeResultBody(jobId, drive, extra);
    const first = await call('/api/wipe_result', record(0));
    expect(first).toEqual({ status: 201, body: { ok: true, wipe_result_id: expect.stringMatching(/^wr_/), certificate_status: expect.any(String) } });
    const failed = await call('/api/wipe_result', record(1, { wipe_status: 'failed' }));
    expect(failed).toEqual({ status: 201, body: { ok: true, wipe_result_id: expect.stringMatching(/^wr_/), certificate_status: null } });
    const again = await call('/api/wipe_result', record(0));
    expect(again.status).toBe(200);
    expect(again.body.wipe_result_id).toBe(first.body.wipe_result_id);
  });

  it('saves and looks up a hotswap chassis map', async () => {
    const system = { uuid: '0e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a5b', serial: 'CZJ8420ABC' };
    const saved = await call('/api/chassis_map', {
      record_id: recordId,
      fingerprint: { system: { ...system, manufacturer: 'HPE', product: 'ProLiant DL380 Gen10' } },
      map: { name: 'Front cage', bays: [{ lane: 'sas-0', label: 'Bay 1' }, { lane: '', label: 'dropped' }] },
    });
    expect(saved).toEqual({ status: 201, body: { ok: true, chassis_map_id: expect.stringMatching(/^cmap_/), asset_id: expect.stringMatching(/^asset_/) } });
    expect(await call('/api/chassis_map/lookup', { system })).toEqual({
      status: 200,
      body: { found: true, map: { name: 'Front cage', bays: [{ lane: 'sas-0', label: 'Bay 1' }] } },
    });
    expect(await call('/api/chassis_map/lookup', { system: { ...system, serial: 'OTHER' } })).toEqual({ status: 200, body: { found: false, map: null } });
  });

  it('relays write rejections as cloud rejected …', async () => {
    const res = await call('/api/notes', { record_id: 'CW-19990101-000000', notes: 'x' });
    expect(res).toEqual({ status: 404, body: { error: expect.stringMatching(/^cloud rejected notes: unknown asset/), status: 404 } });
  });

  it('denies check-in 403 quota_exceeded once the quota is spent', async () => {
    expect((await call('/api/checkin')).body.quota_remaining).toBe(0);
    expect(await call('/api/checkin')).toEqual({ status: 403, body: { allow: false, reason: 'quota_exceeded' } });
  });

  it('a token revoked with the admin CLI is denied at the next verify, and writes get 403', async () => {
    await stack.cli('admin', 'set-token-status', '--jti', jti, '--status', 'revoked');
    expect(await call('/api/verify')).toEqual({ status: 403, body: { allow: false, reason: 'revoked' } });
    expect(await call('/api/notes', { record_id: recordId, notes: 'x' })).toEqual({
      status: 403,
      body: { error: 'cloud rejected notes: token revoked', status: 403 },
    });
  });

  it('a token signed by another fleet key is 401 unauthorized at the gateway', async () => {
    const other = await stack.cli('keygen');
    const { signDeviceToken, devicePrivateKey } = await import('@erasure/shared');
    const forged = await signDeviceToken(devicePrivateKey(other.device_token_private_key), { sub: account.id, jti, expiresAt: Math.floor(Date.now() / 1000) + 60 });
    expect(await call('/api/verify', undefined, forged)).toEqual({ status: 401, body: { error: 'unauthorized' } });
  });

  it('an unreachable cloud is 503 validation_unavailable: the device treats it as a denial', async () => {
    const minted = await stack.cli('admin', 'mint-device-token', '--account', account.id);
    await stopService(stack.cloud.child);
    expect(await call('/api/verify', undefined, minted.token)).toEqual({ status: 503, body: { allow: false, reason: 'validation_unavailable' } });
    expect(await call('/api/checkin', undefined, minted.token)).toEqual({ status: 503, body: { allow: false, reason: 'validation_unavailable' } });
  });
});
