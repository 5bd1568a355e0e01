import { afterEach, describe, expect, it } from 'vitest';
import { fingerprint, startSandbox, wipeResult, type Sandbox } from './helpers.js';
import { issueCheckin } from '../helpers.js';

const SECRET = 'sandbox-secret-0123456789abcdef';
const RECORD = 'CW-20261122-120000';

describe('sandbox /internal mirror and stored rows (spec 1, 4.2, 4.4, 4.6)', () => {
  let sut: Sandbox;
  afterEach(async () => sut.close());

  it('takes unsigned calls when no secret is configured: the jti is the credential', async () => {
    sut = await startSandbox();
    const token = await sut.token({ account_name: 'Acme', quota_limit: 2 });
    const verify = await sut.call('POST', '/internal/tokens/verify', { jti: token.jti });
    expect(verify).toEqual({ status: 200, json: { allow: true, status: 'active', account: 'Acme', quota_remaining: 2 } });
    const validate = await sut.call('POST', '/internal/tokens/validate', { jti: token.jti });
    expect(validate.json).toMatchObject({ allow: true, status: 'active', quota_remaining: 1 });
    expect(validate.json.job_id).toMatch(/^[0-9a-f-]{36}$/);
    const unknown = await sut.call('POST', '/internal/tokens/verify', { jti: 'not-a-token' });
    expect(unknown).toEqual({ status: 404, json: { allow: false, status: 'unknown', reason: 'not_found' } });
    const rows = await sut.call('GET', '/sandbox/tokens');
    expect(rows.json[0]).toMatchObject({ use_count: 1 });
    expect(rows.json[0].last_seen_at).not.toBeNull();
  });

  it('enforces the HMAC when a secret is configured', async () => {
    sut = await startSandbox({ secret: SECRET });
    const token = await sut.token();
    expect(await sut.call('POST', '/internal/tokens/verify', { jti: token.jti })).toEqual({ status: 401, json: { error: 'unauthorized' } });
    expect((await sut.internal('/internal/tokens/verify', { jti: token.jti })).status).toBe(200);
  });

  it('stores assets, notes and tests and lists the sandbox asset rows', async () => {
    sut = await startSandbox();
    const token = await sut.token();
    const asset = await sut.internal('/internal/assets', { jti: token.jti, record_id: RECORD, engine_version: '1.2.0', fingerprint: fingerprint() });
    expect(asset.status).toBe(201);
    expect((await sut.internal('/internal/assets/notes', { jti: token.jti, record_id: RECORD, notes: 'dented lid' })).status).toBe(200);
    const tests = { keyboard: { status: 'passed' }, webcam: { status: 'failed', detail: 'no image' } };
    expect((await sut.internal('/internal/assets/tests', { jti: token.jti, record_id: RECORD, tests })).status).toBe(200);
    const rows = await sut.call('GET', '/sandbox/assets');
    expect(rows.json).toHaveLength(1);
    expect(rows.json[0]).toMatchObject({
      prefix_id: asset.json.asset_id, account_id: token.account_id, hardware_uid: '4c4c4544-0042-3510-8051-b4c04f564e32/B5QVN32',
      notes: 'dented lid', test_results: tests,
    });
    expect(rows.json[0].fingerprint.system.serial).toBe('B5QVN32');
    expect(Object.keys(rows.json[0]).sort()).toEqual(
      ['account_id', 'fingerprint', 'first_seen_at', 'hardware_uid', 'last_booted_at', 'notes', 'prefix_id', 'test_results'].sort(),
    );
  });

  it('certifies synchronously: complete at once, CW-000001 per account, tamper_valid, public verify', async () => {
    sut = await startSandbox();
    const a = await sut.token({ account_id: 'acct_alpha', account_name: 'Alpha' });
    const b = await sut.token({ account_id: 'acct_beta', account_name: 'Beta' });
    await issueCheckin(sut.db, a.jti, 'job-a-0');
    await issueCheckin(sut.db, b.jti, 'job-b-0');
    const first = await sut.internal('/internal/wipe_results', wipeResult(a.jti, 'job-a-0'));
    expect(first.status).toBe(201);
    expect(first.json).toMatchObject({ ok: true, certificate_status: 'complete' });
    expect((await sut.internal('/internal/wipe_results', wipeResult(a.jti, 'job-a-1'))).status).toBe(201);
    expect((await sut.internal('/internal/wipe_results', wipeResult(b.jti, 'job-b-0'))).status).toBe(201);
    const duplicate = await sut.internal('/internal/wipe_results', wipeResult(a.jti, 'job-a-0'));
    expect(duplicate).toMatchObject({ status: 200, json: { wipe_result_id: first.json.wipe_result_id, certificate_status: 'complete' } });
    const failed = await sut.internal('/internal/wipe_results', wipeResult(a.jti, 'job-a-2', { wipe_status: 'failed' }));
    expect(failed.json.certificate_status).toBeNull();
    expect(await sut.db.one('SELECT COUNT(*) AS n FROM jobs')).toEqual({ n: 0 });

    const certs = (await sut.call('GET', '/sandbox/certificates')).json as any[];
    expect(certs.map((c) => [c.account_name, c.reference]).sort()).toEqual([['Alpha', 'CW-000001'], ['Alpha', 'CW-000002'], ['Beta', 'CW-000001']]);
    const cert = certs.find((c) => c.wipe_result_id === first.json.wipe_result_id);
    expect(cert).toMatchObject({ tamper_valid: true, drive_serial: 'S4DYNX0M123456', drive_model: 'SAMSUNG MZVLB512HAJQ' });
    expect(cert.prefix_id).toMatch(/^cert_/);
    expect(cert.signed_at).not.toBeNull();

    const verify = await sut.call('GET', `/certificates/${cert.prefix_id}/verify`);
    expect(verify.status).toBe(200);
    expect(verify.json).toMatchObject({ valid: true, certificate_number: 'CW-000001', account: 'Alpha', drive_capacity_gb: 512, passes_completed: null });
    expect(await sut.call('GET', '/certificates/cert_nope/verify')).toEqual({ status: 404, json: { valid: false, error: 'not_found' } });

    // Tampering with the stored wipe result breaks the check, in the listing and at verify.
    await sut.db.run("UPDATE wipe_results SET drive_serial = 'OTHER' WHERE public_id = @public_id", { public_id: first.json.wipe_result_id });
    expect((await sut.call('GET', `/certificates/${cert.prefix_id}/verify`)).json.valid).toBe(false);
    const after = (await sut.call('GET', '/sandbox/certificates')).json.find((c: any) => c.prefix_id === cert.prefix_id);
    expect(after.tamper_valid).toBe(false);
  });

  it('lists wipe results with drive and wipe fields, job_id and certificate_status', async () => {
    sut = await startSandbox();
    const token = await sut.token();
    await issueCheckin(sut.db, token.jti, 'job-1-0');
    const stored = await sut.internal('/internal/wipe_results', wipeResult(token.jti, 'job-1-0', { markings_removed: true }));
    const rows = (await sut.call('GET', '/sandbox/wipe_results')).json;
    expect(rows[0]).toMatchObject({
      wipe_result_id: stored.json.wipe_result_id, job_id: 'job-1-0', drive_serial: 'S4DYNX0M123456', drive_capacity_gb: 512,
      wipe_method: 'NIST 800-88 R2 Purge', passes_completed: null, wipe_status: 'completed', markings_removed: true, certificate_status: 'complete',
    });
  });

  it('stores a wipe result whose job_id no check-in issued, but does not certify it', async () => {
    sut = await startSandbox();
    const token = await sut.token();
    const made = await sut.internal('/internal/wipe_results', wipeResult(token.jti, 'made-up-0'));
    expect(made).toMatchObject({ status: 201, json: { ok: true, certificate_status: null } });
    const issued = `${(await sut.internal('/internal/tokens/validate', { jti: token.jti })).json.job_id}-0`;
    expect((await sut.internal('/internal/wipe_results', wipeResult(token.jti, issued))).json.certificate_status).toBe('complete');
    expect((await sut.db.one<{ n: number }>('SELECT COUNT(*) AS n FROM certificates'))!.n).toBe(1);
  });

  it('matches a drive to its machine by scanning stored fingerprints, not the storage-serials column', async () => {
    sut = await startSandbox();
    const token = await sut.token();
    const asset = await sut.internal('/internal/assets', { jti: token.jti, record_id: RECORD, fingerprint: fingerprint() });
    // The cloud's indexed column is gone: only the fingerprint scan can find the machine.
    await sut.db.run('UPDATE assets SET storage_serials = NULL');
    await issueCheckin(sut.db, token.jti, 'job-2-0');
    await sut.internal('/internal/wipe_results', wipeResult(token.jti, 'job-2-0'));
    await sut.internal('/internal/wipe_results', wipeResult(token.jti, 'job-2-1', { drive_serial: 'UNKNOWN-DRIVE' }));
    const rows = (await sut.call('GET', '/sandbox/wipe_results')).json as any[];
    expect(rows.find((r) => r.job_id === 'job-2-0').asset_id).toBe(asset.json.asset_id);
    expect(rows.find((r) => r.job_id === 'job-2-1').asset_id).toBeNull();
    const content = (await sut.db.one<{ content: string }>('SELECT content FROM certificates ORDER BY id LIMIT 1'))!;
    expect(JSON.parse(content.content).source_machine.asset_id).toBe(asset.json.asset_id);
  });

  it('saves and looks up chassis maps through the mirror', async () => {
    sut = await startSandbox();
    const token = await sut.token({ product: 'hotswap' });
    const map = { name: 'Rack', bays: [{ lane: '0', label: 'Bay 1' }] };
    const saved = await sut.internal('/internal/chassis_maps', { jti: token.jti, record_id: RECORD, fingerprint: fingerprint(), map });
    expect(saved.status).toBe(201);
    const found = await sut.internal('/internal/chassis_maps/lookup', { jti: token.jti, system: { uuid: '4c4c4544-0042-3510-8051-b4c04f564e32', serial: 'B5QVN32' } });
    expect(found.json).toEqual({ found: true, map });
  });

  it('answers unhandled errors with the sandbox 500 body', async () => {
    sut = await startSandbox();
    await sut.db.run('DROP TABLE sandbox_sink_captures');
    const res = await sut.call('GET', '/sandbox/sink');
    expect(res).toEqual({ status: 500, json: { success: false, errors: [{ code: 7000, message: 'Internal Server Error' }] } });
  });
});
