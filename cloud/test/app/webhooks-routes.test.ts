import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/adapters/clock.js';
import { runAdmin, UsageError } from '../../src/cli/admin.js';
import type { Cloud } from '../helpers.js';
import { addUser, signIn, type Browser } from '../web-helpers.js';
import { signatureValid, startReceiver, startWebhookCloud, waitFor, type WebhookCloud } from '../webhook-helpers.js';

let sut: WebhookCloud;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let admin: Browser;
let technician: Browser;
let account: { id: number; publicId: string };

// The web helpers need only the app, the database and a clock of a cloud.
const asCloud = (cloud: WebhookCloud) => ({ app: cloud.app, db: cloud.db, clock: systemClock }) as unknown as Cloud;

beforeEach(async () => {
  // Retries an hour out: the only second attempts here are the ones a test asks for.
  sut = await startWebhookCloud({ retryBaseMs: 60_000 });
  receiver = await startReceiver();
  account = await sut.account();
  const a = await addUser(asCloud(sut), account.id, 'admin');
  const t = await addUser(asCloud(sut), account.id, 'technician');
  admin = await signIn(asCloud(sut), a.email);
  technician = await signIn(asCloud(sut), t.email);
});

afterEach(async () => {
  await sut.close();
  await receiver.close();
});

const create = (browser: Browser, body: Record<string, unknown>) => browser.send('POST', '/app/api/webhooks', body);

describe('/app/api/webhooks (the /webhooks page)', () => {
  it('admins create; the signing secret appears once; technicians only read', async () => {
    const res = await create(admin, { event_type: 'asset_reported', url: receiver.url, auth_type: 'bearer', token: 'tok' });
    expect(res.status).toBe(201);
    expect(res.json.id).toMatch(/^whk_[0-9a-z]{20}$/);
    expect(res.json.signing_secret).toMatch(/^[0-9a-f]{64}$/);
    expect(res.json).toMatchObject({ event_type: 'asset_reported', auth_type: 'bearer', active: true, health: 'healthy', failure_count: 0 });
    const list = await technician.get('/app/api/webhooks');
    expect(list.status).toBe(200);
    expect(list.json.can_manage).toBe(false);
    expect(list.json.webhooks).toHaveLength(1);
    expect(list.text).not.toContain(res.json.signing_secret);
    expect(list.text).not.toContain('tok');
    expect((await create(technician, { event_type: 'asset_reported', url: `${receiver.url}/2` })).status).toBe(403);
    expect((await admin.send('POST', '/app/api/webhooks', { event_type: 'asset_reported', url: `${receiver.url}/3` }, { csrf: null })).status).toBe(403);
    expect((await create(admin, { event_type: 'asset_reported', url: receiver.url })).status).toBe(409);
    expect((await create(admin, { event_type: 'nope', url: receiver.url })).json.error).toMatch(/^event_type must be one of/);
    expect((await create(admin, { event_type: 'asset_reported', url: receiver.url, auth_type: 'basic', username: 'a' })).status).toBe(422);
  });

  it('allows at most 50 webhooks per account: the 51st is refused with 409', async () => {
    for (let i = 0; i < 50; i++) await sut.subscribe(account.id, 'asset_reported', `${receiver.url}/${i}`);
    const res = await create(admin, { event_type: 'asset_reported', url: `${receiver.url}/50` });
    expect(res.status).toBe(409);
    expect(res.json).toEqual({ error: 'at most 50 webhooks per account' });
  });

  it('gives the last of the 50 places to exactly one of several creations racing for it', async () => {
    for (let i = 0; i < 49; i++) await sut.subscribe(account.id, 'asset_reported', `${receiver.url}/${i}`);
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => create(admin, { event_type: 'asset_reported', url: `${receiver.url}/race-${i}` })));
    expect(answers.map((res) => res.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    expect((await admin.get('/app/api/webhooks')).json.webhooks).toHaveLength(50);
  });

  it('another account cannot see or touch a subscription', async () => {
    const { id } = await sut.subscribe(account.id, 'asset_reported', receiver.url);
    const other = await sut.account('Other');
    const stranger = await signIn(asCloud(sut), (await addUser(asCloud(sut), other.id, 'admin')).email);
    expect((await stranger.get('/app/api/webhooks')).json.webhooks).toEqual([]);
    expect((await stranger.send('DELETE', `/app/api/webhooks/${id}`)).status).toBe(404);
    expect((await stranger.get(`/app/api/webhooks/${id}/deliveries`)).status).toBe(404);
    expect((await stranger.send('POST', `/app/api/webhooks/${id}/test`)).status).toBe(404);
  });

  it('test ping: signed {event_id, event_type, test, created_at}, no ledger row', async () => {
    const created = await create(admin, { event_type: 'wipe_session_completed', url: receiver.url });
    const ping = await admin.send('POST', `/app/api/webhooks/${created.json.id}/test`);
    expect(ping.json).toEqual({ ok: true, response_code: 200 });
    const [request] = receiver.requests;
    expect(Object.keys(request!.json).sort()).toEqual(['created_at', 'event_id', 'event_type', 'test']);
    expect(request!.json).toMatchObject({ event_type: 'wipe_session_completed', test: true });
    expect(request!.headers['x-erase-engine-event']).toBe('wipe_session_completed');
    expect(signatureValid(created.json.signing_secret, request!)).toBe(true);
    expect(await sut.deliveries()).toEqual([]);
    receiver.respond(() => 500);
    expect((await admin.send('POST', `/app/api/webhooks/${created.json.id}/test`)).json).toEqual({ ok: false, error: 'HTTP 500', response_code: 500 });
  });

  it('delivery log shows each attempt; manual redelivery resends the same event_id', async () => {
    receiver.respond(() => 500);
    const created = await create(admin, { event_type: 'wipe_session_ready', url: receiver.url });
    const { json } = await sut.post('/internal/tokens/validate', { jti: (await sut.token(account.id)).jti });
    await waitFor(async () => (await sut.deliveries())[0]?.response_code === 500, 5000, 'failed attempt');

    const log = await admin.get(`/app/api/webhooks/${created.json.id}/deliveries`);
    expect(log.json).toMatchObject({ page: 1, pages: 1, count: 1 });
    const [delivery] = log.json.deliveries;
    expect(Date.parse(delivery.next_attempt_at)).toBeGreaterThan(Date.now() + 30_000);
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, response_code: 500, last_error: 'HTTP 500', webhook_prefix_id: created.json.id });
    expect(delivery.payload).toMatchObject({ event_type: 'wipe_session_ready', job_id: json.job_id });
    expect(delivery.attempt_log).toMatchObject([{ attempt: 1, outcome: 'failed', response_code: 500, error: 'HTTP 500' }]);

    receiver.respond(() => 200);
    expect((await technician.send('POST', `/app/api/webhooks/${created.json.id}/deliveries/${delivery.id}/redeliver`)).status).toBe(403);
    expect((await admin.send('POST', `/app/api/webhooks/${created.json.id}/deliveries/${delivery.id}/redeliver`)).json).toEqual({ ok: true });
    await waitFor(async () => (await sut.deliveries())[0]?.status === 'delivered', 5000, 'redelivery');
    const after = (await admin.get(`/app/api/webhooks/${created.json.id}/deliveries`)).json.deliveries[0];
    expect(after.attempt_log.map((a: { outcome: string }) => a.outcome)).toEqual(['failed', 'delivered']);
    expect(new Set(receiver.requests.map((r) => r.json.event_id))).toEqual(new Set([delivery.event_id]));
  });

  it('disable, update, enable and delete', async () => {
    const { json: created } = await create(admin, { event_type: 'asset_reported', url: receiver.url });
    const disabled = await admin.send('POST', `/app/api/webhooks/${created.id}/disable`);
    expect(disabled.json).toMatchObject({ active: false, health: 'disabled', auto_disabled_at: null });
    const updated = await admin.send('PUT', `/app/api/webhooks/${created.id}`, { url: `${receiver.url}/v2`, auth_type: 'basic', username: 'u', password: 'p' });
    expect(updated.json).toMatchObject({ url: `${receiver.url}/v2`, auth_type: 'basic', basic_username: 'u', active: false });
    expect((await admin.send('PUT', `/app/api/webhooks/${created.id}`, { active: 'yes' })).status).toBe(422);
    // Onto another subscription's (event type, url): refused by the unique constraint, nothing changed.
    const { json: other } = await create(admin, { event_type: 'asset_reported', url: `${receiver.url}/v3` });
    const clash = await admin.send('PUT', `/app/api/webhooks/${created.id}`, { url: `${receiver.url}/v3`, active: true });
    expect(clash.status).toBe(409);
    expect(clash.json.error).toBe('a webhook for this event type and url already exists');
    expect((await admin.get('/app/api/webhooks')).json.webhooks.find((w: { id: string }) => w.id === created.id)).toMatchObject({ url: `${receiver.url}/v2`, active: false });
    expect((await admin.send('DELETE', `/app/api/webhooks/${other.id}`)).json).toEqual({ ok: true });
    const enabled = await admin.send('POST', `/app/api/webhooks/${created.id}/enable`);
    expect(enabled.json).toMatchObject({ active: true, health: 'healthy', reconciled: 0 });
    expect((await admin.send('DELETE', `/app/api/webhooks/${created.id}`)).json).toEqual({ ok: true });
    expect((await admin.get('/app/api/webhooks')).json.webhooks).toEqual([]);
  });

  it('admin create-webhook prints the subscription with its signing secret', async () => {
    const deps = { db: sut.db, clock: systemClock, deviceTokenPrivateKey: undefined };
    const flags = { account: account.publicId, 'event-type': 'certificate_generated', url: 'https://hooks.example.com/in', 'auth-type': 'bearer', token: 't' };
    const printed = (await runAdmin(deps, 'create-webhook', flags)) as Record<string, unknown>;
    expect(printed).toMatchObject({ account_id: account.publicId, event_type: 'certificate_generated', auth_type: 'bearer', active: true, failure_count: 0, auto_disabled_at: null });
    expect(printed.signing_secret).toMatch(/^[0-9a-f]{64}$/);
    await expect(runAdmin(deps, 'create-webhook', { ...flags, url: 'http://hooks.example.com/in' })).rejects.toThrow(UsageError);
    expect(await runAdmin({ ...deps, outbound: { allowHttp: true, allowLoopback: false } }, 'create-webhook', { ...flags, url: 'http://hooks.example.com/in' })).toMatchObject({ url: 'http://hooks.example.com/in' });
  });
});
