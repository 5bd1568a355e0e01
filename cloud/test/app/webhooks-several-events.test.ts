import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/adapters/clock.js';
import type { Cloud } from '../helpers.js';
import { fingerprint } from '../helpers.js';
import { addUser, signIn, type Browser } from '../web-helpers.js';
import { startReceiver, startWebhookCloud, waitFor, type WebhookCloud } from '../webhook-helpers.js';

const ALL_SIX = ['wipe_session_ready', 'wipe_session_blocked', 'asset_reported', 'hardware_tests_completed', 'wipe_session_completed', 'certificate_generated'];

/**
 * One subscription for several events (issue 28, item 16): `event_types` beside the spec's single
 * `event_type`, which stays the subscription's first event so every single-event caller is unchanged.
 */
describe('a webhook subscribed to several events', () => {
  let sut: WebhookCloud;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let admin: Browser;
  let account: { id: number; publicId: string };

  beforeEach(async () => {
    sut = await startWebhookCloud({ retryBaseMs: 60_000 });
    receiver = await startReceiver();
    account = await sut.account();
    const asCloud = { app: sut.app, db: sut.db, clock: systemClock } as unknown as Cloud;
    admin = await signIn(asCloud, (await addUser(asCloud, account.id, 'admin')).email);
  });
  afterEach(async () => {
    await sut.close();
    await receiver.close();
  });

  const create = (body: Record<string, unknown>) => admin.send('POST', '/app/api/webhooks', body);

  it('takes all six events in one subscription and delivers each of them to it', async () => {
    const created = await create({ event_types: [...ALL_SIX].reverse(), url: receiver.url });
    expect(created.status).toBe(201);
    // The spec's order, the first one as `event_type`.
    expect(created.json).toMatchObject({ event_type: 'wipe_session_ready', event_types: ALL_SIX });
    expect((await admin.get('/app/api/webhooks')).json.webhooks).toMatchObject([{ id: created.json.id, event_types: ALL_SIX }]);

    const { jti } = await sut.token(account.id);
    await sut.post('/internal/tokens/validate', { jti });
    expect((await sut.post('/internal/assets', { jti, record_id: 'CW-20261122-120000', engine_version: '1.4.0', fingerprint: fingerprint() })).status).toBe(201);
    await waitFor(async () => receiver.requests.length >= 2, 5000, 'two deliveries');
    expect(new Set(receiver.requests.map((r) => r.json.event_type))).toEqual(new Set(['wipe_session_ready', 'asset_reported']));
  });

  it('a single-event subscription still gets only its own event', async () => {
    expect((await create({ event_type: 'asset_reported', url: receiver.url })).json.event_types).toEqual(['asset_reported']);
    const { jti } = await sut.token(account.id);
    await sut.post('/internal/tokens/validate', { jti });
    await sut.post('/internal/assets', { jti, record_id: 'CW-20261122-120000', engine_version: '1.4.0', fingerprint: fingerprint() });
    await waitFor(async () => receiver.requests.length >= 1, 5000, 'one delivery');
    expect((await sut.deliveries()).length).toBe(1);
    expect(receiver.requests.map((r) => r.json.event_type)).toEqual(['asset_reported']);
  });

  it('refuses an empty or unknown list with 422 and changes the events with PATCH', async () => {
    expect((await create({ event_types: [], url: receiver.url })).json.error).toMatch(/^event_types must be a non-empty list of/);
    expect((await create({ event_types: ['asset_reported', 'nope'], url: receiver.url })).status).toBe(422);
    expect((await create({ event_types: 'asset_reported', url: receiver.url })).status).toBe(422);
    expect((await create({ event_type: 'certificate_generated', event_types: ['asset_reported'], url: receiver.url })).json.error).toBe('event_type, sent with event_types, must be one of them');
    const created = await create({ event_types: ['asset_reported', 'certificate_generated'], url: receiver.url });
    const patched = await admin.send('PUT', `/app/api/webhooks/${created.json.id}`, { event_types: ['hardware_tests_completed', 'wipe_session_completed'] });
    expect(patched.json).toMatchObject({ event_type: 'hardware_tests_completed', event_types: ['hardware_tests_completed', 'wipe_session_completed'] });
    const single = await admin.send('PUT', `/app/api/webhooks/${created.json.id}`, { event_type: 'asset_reported' });
    expect(single.json.event_types).toEqual(['asset_reported']);
  });
});
