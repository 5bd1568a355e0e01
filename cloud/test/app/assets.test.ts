import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createUser } from '../../src/adapters/db/users.js';
import { fingerprint, startCloud, type Cloud } from '../helpers.js';

const ASSETS = '/internal/assets';
const NOTES = '/internal/assets/notes';
const TESTS = '/internal/assets/tests';

describe('asset report, notes and tests (spec 4.2)', () => {
  let cloud: Cloud;
  let jti: string;
  beforeEach(async () => {
    cloud = await startCloud();
    jti = (await cloud.token((await cloud.account()).id, { userEmail: 'ana@example.com' })).jti;
  });
  afterEach(() => cloud.close());

  const report = (recordId: string, fp: object = fingerprint()) =>
    cloud.post(ASSETS, { jti, record_id: recordId, engine_version: '1.4.0', fingerprint: fp });
  const assetRow = async (id: string) => (await cloud.db.one<Record<string, unknown>>('SELECT * FROM assets WHERE public_id = @id', { id }))!;
  const accountOfToken = async () =>
    (await cloud.db.one<{ account_id: number }>('SELECT account_id FROM license_tokens WHERE jti = @jti', { jti }))!.account_id;

  it('creates the asset on first report: 201 {ok, asset_id} with promoted columns and the first reporter', async () => {
    const res = await report('CW-20261122-120000');
    expect(res.status).toBe(201);
    expect(res.json).toEqual({ ok: true, asset_id: expect.stringMatching(/^asset_[0-9a-z]{20}$/) });
    expect(await assetRow(res.json.asset_id)).toMatchObject({
      hardware_uid: '4c4c4544-0042-3510-8051-b4c04f564e32/B5QVN32',
      record_id: 'CW-20261122-120000',
      manufacturer: 'Dell Inc.',
      model: 'Latitude 7490',
      serial_number: 'B5QVN32',
      cpu_model: 'Intel(R) Core(TM) i7-8650U CPU @ 1.90GHz',
      memory_total_bytes: 17_179_869_184,
      storage_serials: 'S4DYNX0M123456',
      battery_health_pct: 81,
      technician: 'ana@example.com',
      first_seen_at: '2026-11-22T12:00:00.000Z',
      boot_count: 1,
      test_results: '{}',
    });
  });

  it('refreshes the same asset on a later boot and keeps the first reporter and first_seen_at', async () => {
    const first = await report('CW-20261122-120000');
    const laterToken = await cloud.token(await accountOfToken(), { userEmail: 'bo@example.com' });
    cloud.clock.set('2026-11-23T08:00:00.000Z');
    const second = await cloud.post(ASSETS, {
      jti: laterToken.jti,
      record_id: 'CW-20261123-080000',
      engine_version: '1.5.0',
      fingerprint: fingerprint(undefined, undefined, { memory: { total_bytes: 34_359_738_368 } }),
    });
    expect(second.status).toBe(201);
    expect(second.json.asset_id).toBe(first.json.asset_id);
    expect(await assetRow(first.json.asset_id)).toMatchObject({
      record_id: 'CW-20261123-080000',
      engine_version: '1.5.0',
      memory_total_bytes: 34_359_738_368,
      technician: 'ana@example.com',
      first_seen_at: '2026-11-22T12:00:00.000Z',
      last_booted_at: '2026-11-23T08:00:00.000Z',
      updated_at: '2026-11-23T08:00:00.000Z',
      boot_count: 2,
    });
  });

  it('records the technician by the user’s name when the token’s user has one', async () => {
    const accountId = await accountOfToken();
    await createUser(cloud.db, { accountId, email: 'ana@example.com', passwordHash: 'x', role: 'technician', now: '2026-11-22T12:00:00.000Z', name: 'Ana Lima' });
    const res = await report('CW-20261122-120000');
    expect((await assetRow(res.json.asset_id)).technician).toBe('Ana Lima');
  });

  it('keys a machine without DMI identity on its record_id', async () => {
    const fp = fingerprint('00000000-0000-0000-0000-000000000000', 'To Be Filled By O.E.M.');
    const a = await report('CW-20261122-120000', fp);
    const b = await report('CW-20261122-120001', fp);
    expect(a.json.asset_id).not.toBe(b.json.asset_id);
    expect((await assetRow(a.json.asset_id)).hardware_uid).toBe('CW-20261122-120000');
  });

  it('keeps one asset per machine per account', async () => {
    const otherToken = await cloud.token((await cloud.account('Other')).id);
    const mine = await report('CW-20261122-120000');
    const theirs = await cloud.post(ASSETS, { jti: otherToken.jti, record_id: 'CW-20261122-120000', fingerprint: fingerprint() });
    expect(theirs.json.asset_id).not.toBe(mine.json.asset_id);
  });

  it.each([
    ['record_id missing', { fingerprint: fingerprint() }],
    ['record_id blank', { record_id: '  ', fingerprint: fingerprint() }],
    ['fingerprint missing', { record_id: 'CW-20261122-120000' }],
    ['fingerprint not an object', { record_id: 'CW-20261122-120000', fingerprint: 'dell' }],
  ])('answers 422 missing record_id or fingerprint when %s', async (_name, body) => {
    const res = await cloud.post(ASSETS, { jti, ...body });
    expect(res.status).toBe(422);
    expect(res.json).toEqual({ error: 'missing record_id or fingerprint' });
  });

  it('answers 422 with the field named when a typed fingerprint field has the wrong type', async () => {
    const res = await report('CW-20261122-120000', { memory: { total_bytes: 'lots' } });
    expect(res.status).toBe(422);
    expect(res.json.error).toMatch(/fingerprint.*memory\/total_bytes/);
  });

  it.each(['revoked', 'suspended', 'disabled'] as const)('answers 403 token %s for a %s token', async (status) => {
    const token = await cloud.token((await cloud.account()).id, { status });
    for (const url of [ASSETS, NOTES, TESTS, '/internal/wipe_results', '/internal/chassis_maps', '/internal/chassis_maps/lookup']) {
      const res = await cloud.post(url, { jti: token.jti, record_id: 'CW-20261122-120000', fingerprint: fingerprint(), job_id: 'j' });
      expect(res.status, url).toBe(403);
      expect(res.json, url).toEqual({ error: `token ${status}` });
    }
  });

  it('answers 404 unknown token for an unknown jti or another account’s account_id on every non-ladder endpoint', async () => {
    const other = await cloud.account('Other');
    for (const url of [ASSETS, NOTES, TESTS, '/internal/wipe_results', '/internal/chassis_maps', '/internal/chassis_maps/lookup']) {
      for (const body of [{ jti: 'nope' }, { jti, account_id: other.publicId }, {}]) {
        const res = await cloud.post(url, { ...body, record_id: 'CW-20261122-120000', fingerprint: fingerprint(), job_id: 'j' });
        expect(res.status, url).toBe(404);
        expect(res.json, url).toEqual({ error: 'unknown token' });
      }
    }
  });

  it('accepts a lapsed account’s reports: only token status gates the non-ladder endpoints', async () => {
    const token = await cloud.token((await cloud.account('Lapsed', 'canceled')).id);
    const res = await cloud.post(ASSETS, { jti: token.jti, record_id: 'CW-20261122-120000', fingerprint: fingerprint() });
    expect(res.status).toBe(201);
  });

  it('attaches notes to the boot’s asset: 200 {ok, asset_id}', async () => {
    const asset = await report('CW-20261122-120000');
    const res = await cloud.post(NOTES, { jti, record_id: 'CW-20261122-120000', notes: 'Hinge cracked; 日本語 OK' });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ ok: true, asset_id: asset.json.asset_id });
    expect((await assetRow(asset.json.asset_id)).notes).toBe('Hinge cracked; 日本語 OK');
  });

  it('answers 404 unknown asset for notes or tests before the boot’s asset report landed', async () => {
    for (const [url, extra] of [[NOTES, { notes: 'x' }], [TESTS, { tests: {} }]] as const) {
      const res = await cloud.post(url, { jti, record_id: 'CW-20261122-130000', ...extra });
      expect(res.status).toBe(404);
      expect(res.json).toEqual({ error: 'unknown asset' });
    }
  });

  it('replaces the whole test snapshot on each submission', async () => {
    const asset = await report('CW-20261122-120000');
    await cloud.post(TESTS, { jti, record_id: 'CW-20261122-120000', tests: { keyboard: { status: 'passed' }, webcam: { status: 'failed', detail: 'no image' } } });
    const res = await cloud.post(TESTS, { jti, record_id: 'CW-20261122-120000', tests: { display: { status: 'passed' }, wifi_adapter: { status: 'detected' } } });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ ok: true, asset_id: asset.json.asset_id });
    expect(JSON.parse((await assetRow(asset.json.asset_id)).test_results as string)).toEqual({
      display: { status: 'passed' },
      wifi_adapter: { status: 'detected' },
    });
  });

  it('accepts every wire id with every status', async () => {
    await report('CW-20261122-120000');
    const ids = ['keyboard', 'display', 'usb_ports', 'battery', 'wifi_adapter', 'bluetooth', 'webcam', 'audio', 'touchscreen'];
    const statuses = ['not_started', 'passed', 'failed', 'not_applicable', 'detected'];
    for (const status of statuses) {
      const tests = Object.fromEntries(ids.map((id) => [id, { status, detail: `${id} ${status}` }]));
      expect((await cloud.post(TESTS, { jti, record_id: 'CW-20261122-120000', tests })).status).toBe(200);
    }
  });

  it.each([
    ['an unknown wire id', { floppy: { status: 'passed' } }],
    ['an unknown status', { keyboard: { status: 'ok' } }],
    ['a missing status', { keyboard: { detail: 'x' } }],
    ['a non-object', 'all passed'],
    ['an array', [{ keyboard: 'passed' }]],
  ])('answers 422 invalid tests for %s', async (_name, tests) => {
    await report('CW-20261122-120000');
    const res = await cloud.post(TESTS, { jti, record_id: 'CW-20261122-120000', tests });
    expect(res.status).toBe(422);
    expect(res.json).toEqual({ error: 'invalid tests' });
  });
});
