import { hmacSignature } from '@erasure/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSlowReceiver } from '../slow-receiver.js';
import { fingerprint, startReceiver, startSandbox, wipeResult, type Sandbox } from './helpers.js';

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

describe('sandbox webhooks: subscriptions, single-attempt delivery, sink (spec 4.6, 6)', () => {
  let sut: Sandbox;
  let receiver: Receiver | undefined;
  let token: any;
  beforeEach(async () => {
    sut = await startSandbox();
    token = await sut.token({ account_id: 'acct_hooks', account_name: 'Hooks Inc', user_email: 'ops@hooks.test' });
  });
  afterEach(async () => {
    await receiver?.close();
    receiver = undefined;
    await sut.close();
  });

  const subscribe = async (event_type: string, url?: string, extra: object = {}) => {
    const res = await sut.call('POST', '/sandbox/webhooks', { event_type, account_id: 'acct_hooks', ...(url ? { url } : {}), ...extra });
    expect(res.status).toBe(201);
    return res.json;
  };

  it('creates a subscription with a 64-hex signing secret, defaulting to the sink', async () => {
    const hook = await subscribe('asset_reported');
    expect(hook).toMatchObject({ account_id: 'acct_hooks', event_type: 'asset_reported', url: 'sandbox://sink', auth_type: 'none', active: true, failure_count: 0, auto_disabled_at: null });
    expect(hook.prefix_id).toMatch(/^whk_/);
    expect(hook.signing_secret).toMatch(/^[0-9a-f]{64}$/);
    const list = (await sut.call('GET', '/sandbox/webhooks')).json;
    expect(list.map((w: any) => w.prefix_id)).toEqual([hook.prefix_id]);
  });

  it('refuses a subscription with no derivable account, a bad event type or URL', async () => {
    expect(await sut.call('POST', '/sandbox/webhooks', { event_type: 'asset_reported' })).toEqual({
      status: 422, json: { error: 'account_id required (or authorize with an API key)' },
    });
    expect((await sut.call('POST', '/sandbox/webhooks', { event_type: 'nope', account_id: 'acct_hooks' })).status).toBe(422);
    expect((await sut.call('POST', '/sandbox/webhooks', { event_type: 'asset_reported', account_id: 'acct_hooks', url: 'ftp://x' })).status).toBe(422);
    expect((await sut.call('POST', '/sandbox/webhooks', { event_type: 'asset_reported', account_id: 'acct_hooks', auth_type: 'bearer' })).json).toEqual({
      error: 'auth_type bearer needs auth_token',
    });
  });

  it('delivers one signed POST to an http receiver, with bearer auth, and records it in the ledger', async () => {
    receiver = await startReceiver();
    const hook = await subscribe('wipe_session_completed', receiver.url, { auth_type: 'bearer', auth_token: 'tok-123' });
    const jobId = `${(await sut.internal('/internal/tokens/validate', { jti: token.jti })).json.job_id}-0`;
    await sut.internal('/internal/wipe_results', wipeResult(token.jti, jobId));
    await sut.webhooks.idle();
    expect(receiver.received).toHaveLength(1);
    const got = receiver.received[0]!;
    const ts = got.headers['x-erase-engine-timestamp'] as string;
    expect(got.headers['x-erase-engine-signature']).toBe(hmacSignature(hook.signing_secret, ts, got.body));
    expect(got.headers['x-erase-engine-event']).toBe('wipe_session_completed');
    expect(got.headers.authorization).toBe('Bearer tok-123');
    const payload = JSON.parse(got.body);
    expect(payload).toMatchObject({
      event_type: 'wipe_session_completed', type: 'wipe_report', job_id: jobId, operator: 'ops@hooks.test', license_token_id: token.prefix_id,
      certificate_status: 'complete', certificate_url: null, pdf_url: null, capacity_bytes: 512_000_000_000, erase_algorithm: 'nist_800_88_r2_purge',
    });
    const ledger = (await sut.call('GET', '/sandbox/webhook_deliveries')).json;
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ status: 'delivered', attempts: 1, response_code: 204, webhook_prefix_id: hook.prefix_id, webhook_url: receiver.url, event_id: payload.event_id });
    expect(ledger[0].payload).toEqual(payload);
  });

  // Issue 32: the floor view's event beyond the spec's six, mirrored as the cloud sends it.
  it('delivers drive_stalled, signed, once a reported drive stood still for the stall time; once per stall', async () => {
    receiver = await startReceiver();
    const hook = await subscribe('drive_stalled', receiver.url);
    const drive = { device: '/dev/sda', model: 'ST1000DM010', serial: 'Z9A1', stage: 'write', pass: 1, passes: 1, bytes_done: 100_000_000, bytes_total: 1_000_000_000 };
    let sequence = 0;
    const report = async (bytes: number) =>
      expect(
        (await sut.internal('/internal/floor_report', {
          jti: token.jti, machine_id: 'dmi-4c4c4544-0052', boot_id: 'boot-1', name: 'Dell OptiPlex 7080', kind: 'machine',
          sequence: ++sequence, sent_at: sut.clock.now().toISOString(), drives: [{ ...drive, bytes_done: bytes }],
        })).json,
      ).toEqual({ ok: true, stored: true });
    await report(100_000_000);
    sut.clock.advance(9 * 60 * 1000);
    await report(100_000_000);
    await sut.webhooks.idle();
    expect(receiver.received).toHaveLength(0);
    sut.clock.advance(2 * 60 * 1000); // 11 minutes without a byte: past the default 10
    await report(100_000_000);
    sut.clock.advance(60 * 1000);
    await report(100_000_000); // the same stall: no second event
    await sut.webhooks.idle();
    expect(receiver.received).toHaveLength(1);
    const got = receiver.received[0]!;
    expect(got.headers['x-erase-engine-event']).toBe('drive_stalled');
    expect(got.headers['x-erase-engine-signature']).toBe(hmacSignature(hook.signing_secret, got.headers['x-erase-engine-timestamp'] as string, got.body));
    expect(JSON.parse(got.body)).toMatchObject({
      event_type: 'drive_stalled', type: 'floor_drive', id: 'dmi-4c4c4544-0052:/dev/sda', machine_name: 'Dell OptiPlex 7080',
      serial: 'Z9A1', stage: 'write', bytes_done: 100_000_000, floor_url: 'http://sandbox.test/floor',
    });
  });

  it('fires certificate_generated inline with the wipe result, and nothing again on a duplicate job_id', async () => {
    await subscribe('certificate_generated');
    await subscribe('wipe_session_completed');
    const jobId = `${(await sut.internal('/internal/tokens/validate', { jti: token.jti })).json.job_id}-0`;
    // Issue 31 item 6: job details typed at the kiosk for the boot's record ride on both events.
    const record = { jti: token.jti, record_id: 'CW-20261122-150000' };
    await sut.internal('/internal/assets', { ...record, fingerprint: fingerprint() });
    const details = { customer: 'Northwind Schools', lot_reference: 'LOT-2026-11-077', asset_tag: 'AT-004211' };
    expect((await sut.internal('/internal/assets/job_details', { ...record, ...details })).status).toBe(200);
    await sut.internal('/internal/wipe_results', { ...wipeResult(token.jti, jobId), record_id: record.record_id });
    await sut.internal('/internal/wipe_results', { ...wipeResult(token.jti, jobId), record_id: record.record_id });
    await sut.webhooks.idle();
    const captures = (await sut.call('GET', '/sandbox/sink')).json as any[];
    expect(captures.map((c) => c.event_type).sort()).toEqual(['certificate_generated', 'wipe_session_completed']);
    const generated = JSON.parse(captures.find((c) => c.event_type === 'certificate_generated').body);
    expect(generated).toMatchObject({ certificate_number: 'CW-000001', certificate_url: null, pdf_url: null, job_id: jobId, ...details });
    expect(JSON.parse(captures.find((c) => c.event_type === 'wipe_session_completed').body)).toMatchObject({ type: 'wipe_report', ...details });
    expect(captures.every((c) => c.signature_valid)).toBe(true);
  });

  it('fires ready, blocked, asset_reported (first boot only) and hardware_tests_completed to the sink', async () => {
    for (const type of ['wipe_session_ready', 'wipe_session_blocked', 'asset_reported', 'hardware_tests_completed']) await subscribe(type);
    await sut.internal('/internal/tokens/validate', { jti: token.jti });
    await sut.internal('/internal/assets', { jti: token.jti, record_id: 'CW-20261122-120000', fingerprint: fingerprint() });
    await sut.internal('/internal/assets', { jti: token.jti, record_id: 'CW-20261122-130000', fingerprint: fingerprint() });
    await sut.internal('/internal/assets/tests', { jti: token.jti, record_id: 'CW-20261122-130000', tests: { audio: { status: 'passed' } } });
    await sut.call('PATCH', `/sandbox/tokens/${token.jti}`, { status: 'suspended' });
    await sut.internal('/internal/tokens/verify', { jti: token.jti });
    await sut.webhooks.idle();
    const captures = (await sut.call('GET', '/sandbox/sink')).json as any[];
    expect(captures.map((c) => c.event_type).reverse()).toEqual(['wipe_session_ready', 'asset_reported', 'hardware_tests_completed', 'wipe_session_blocked']);
    const blocked = JSON.parse(captures[0].body);
    expect(blocked).toMatchObject({ phase: 'verify', reason: 'suspended', operator: 'ops@hooks.test' });
  });

  it('makes one attempt per event, counts failures and auto-disables at 5 consecutive', async () => {
    receiver = await startReceiver(() => 500);
    const hook = await subscribe('wipe_session_ready', receiver.url);
    for (let i = 0; i < 6; i++) {
      await sut.internal('/internal/tokens/validate', { jti: token.jti });
      await sut.webhooks.idle(); // each event's single attempt settles before the next event
    }
    expect(receiver.received).toHaveLength(5); // the sixth event found the subscription disabled
    const ledger = (await sut.call('GET', '/sandbox/webhook_deliveries')).json as any[];
    expect(ledger.every((d) => d.status === 'failed' && d.attempts === 1 && d.response_code === 500 && d.last_error === 'HTTP 500')).toBe(true);
    const [after] = (await sut.call('GET', '/sandbox/webhooks')).json;
    expect(after).toMatchObject({ active: false, failure_count: 5 });
    expect(after.auto_disabled_at).not.toBeNull();

    const enabled = await sut.call('PATCH', `/sandbox/webhooks/${hook.prefix_id}`, { active: true, url: 'sandbox://sink' });
    expect(enabled.json).toMatchObject({ active: true, failure_count: 0, auto_disabled_at: null, url: 'sandbox://sink' });
  });

  it('with many events at once, a failing subscription gets exactly 5 attempts, one at a time, then none', async () => {
    const slow = await startSlowReceiver(() => 500);
    try {
      await subscribe('wipe_session_ready', slow.url);
      await Promise.all(Array.from({ length: 12 }, () => sut.internal('/internal/tokens/validate', { jti: token.jti })));
      await sut.webhooks.idle();
      expect(slow.received()).toHaveLength(5);
      expect(slow.maxOpen()).toBe(1);
      const ledger = (await sut.call('GET', '/sandbox/webhook_deliveries')).json as any[];
      expect(ledger.filter((d) => d.attempts === 1)).toHaveLength(5);
      expect(ledger.filter((d) => d.attempts === 0).every((d) => d.status === 'failed' && d.last_error === 'subscription disabled before this attempt')).toBe(true);
      expect((await sut.call('GET', '/sandbox/webhooks')).json[0]).toMatchObject({ active: false, failure_count: 5 });
    } finally {
      await slow.close();
    }
  });

  it("delivers one subscription's events one at a time, in the order they happened", async () => {
    const slow = await startSlowReceiver(() => 200, 10);
    try {
      await subscribe('wipe_session_ready', slow.url);
      const jobIds: string[] = [];
      const calls = Array.from({ length: 15 }, () => sut.internal('/internal/tokens/validate', { jti: token.jti }).then((r) => r.json.job_id as string));
      // Events happen in the order their calls are answered by the single-writer database.
      for (const call of calls) jobIds.push(await call);
      await sut.webhooks.idle();
      const ledgerOrder = ((await sut.call('GET', '/sandbox/webhook_deliveries')).json as any[]).map((d) => d.payload.job_id).reverse();
      expect(slow.received().map((p) => p.job_id)).toEqual(ledgerOrder);
      expect(new Set(ledgerOrder)).toEqual(new Set(jobIds));
      expect(slow.maxOpen()).toBe(1);
    } finally {
      await slow.close();
    }
  });

  it('resets the failure count on a delivered attempt (consecutive failures only)', async () => {
    let status = 500;
    receiver = await startReceiver(() => status);
    await subscribe('wipe_session_ready', receiver.url);
    for (let i = 0; i < 3; i++) await sut.internal('/internal/tokens/validate', { jti: token.jti });
    await sut.webhooks.idle();
    expect((await sut.call('GET', '/sandbox/webhooks')).json[0].failure_count).toBe(3);
    status = 200;
    await sut.internal('/internal/tokens/validate', { jti: token.jti });
    await sut.webhooks.idle();
    expect((await sut.call('GET', '/sandbox/webhooks')).json[0]).toMatchObject({ failure_count: 0, active: true });
  });

  it('pings without a ledger row: ok with the response code, or the error', async () => {
    receiver = await startReceiver(() => 202);
    const ok = await subscribe('asset_reported', receiver.url);
    expect((await sut.call('POST', `/sandbox/webhooks/${ok.prefix_id}/test`)).json).toEqual({ ok: true, response_code: 202 });
    const ping = JSON.parse(receiver.received[0]!.body);
    expect(ping).toMatchObject({ event_type: 'asset_reported', test: true });
    expect(Object.keys(ping).sort()).toEqual(['created_at', 'event_id', 'event_type', 'test']);
    const dead = await subscribe('asset_reported', 'http://127.0.0.1:9/hook');
    const failed = (await sut.call('POST', `/sandbox/webhooks/${dead.prefix_id}/test`)).json;
    expect(failed.ok).toBe(false);
    expect(typeof failed.error).toBe('string');
    expect((await sut.call('GET', '/sandbox/webhook_deliveries')).json).toEqual([]);
    expect((await sut.call('POST', '/sandbox/webhooks/whk_missing/test')).status).toBe(404);
  });

  it('deletes a subscription with its delivery rows; its captures stay but no longer verify', async () => {
    const hook = await subscribe('wipe_session_ready');
    await sut.internal('/internal/tokens/validate', { jti: token.jti });
    await sut.webhooks.idle();
    expect((await sut.call('GET', '/sandbox/sink')).json[0].signature_valid).toBe(true);
    expect(await sut.call('DELETE', `/sandbox/webhooks/${hook.prefix_id}`)).toEqual({ status: 200, json: { ok: true } });
    expect((await sut.call('GET', '/sandbox/webhook_deliveries')).json).toEqual([]);
    expect((await sut.call('GET', '/sandbox/webhooks')).json).toEqual([]);
    expect((await sut.call('GET', '/sandbox/sink')).json[0].signature_valid).toBe(false);
    expect((await sut.call('DELETE', `/sandbox/webhooks/${hook.prefix_id}`)).status).toBe(404);
  });

  it('flags a tampered sink capture as signature invalid', async () => {
    await subscribe('wipe_session_ready');
    await sut.internal('/internal/tokens/validate', { jti: token.jti });
    await sut.webhooks.idle();
    await sut.db.run("UPDATE sandbox_sink_captures SET body = replace(body, 'wipe_session', 'wipe_sessionX')");
    expect((await sut.call('GET', '/sandbox/sink')).json[0].signature_valid).toBe(false);
  });

  it('validates webhook patches and answers 404 for an unknown subscription', async () => {
    const hook = await subscribe('asset_reported');
    expect((await sut.call('PATCH', `/sandbox/webhooks/${hook.prefix_id}`, { active: 'yes' })).status).toBe(422);
    expect((await sut.call('PATCH', `/sandbox/webhooks/${hook.prefix_id}`, {})).status).toBe(422);
    expect((await sut.call('PATCH', '/sandbox/webhooks/whk_missing', { active: false })).status).toBe(404);
    const moved = await sut.call('PATCH', `/sandbox/webhooks/${hook.prefix_id}`, { event_type: 'hardware_tests_completed', active: false });
    expect(moved.json).toMatchObject({ event_type: 'hardware_tests_completed', active: false });
  });
});
