import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/adapters/clock.js';
import { findSubscription } from '../../src/adapters/db/webhook-subscriptions.js';
import { runAdmin } from '../../src/cli/admin.js';
import { rotateWebhookSecret } from '../../src/domain/webhooks/manage.js';
import type { Cloud } from '../helpers.js';
import { addUser, signIn } from '../web-helpers.js';
import { signatureValid, startReceiver, startWebhookCloud, waitFor, type WebhookCloud } from '../webhook-helpers.js';

/** Signing secret rotation with a rollover window (issue 11, item 9). */
describe('webhook signing secret rotation', () => {
  let sut: WebhookCloud;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let account: { id: number; publicId: string };
  beforeEach(async () => {
    sut = await startWebhookCloud();
    receiver = await startReceiver();
    account = await sut.account();
  });
  afterEach(async () => {
    await sut.close();
    await receiver.close();
  });

  const fire = async () => {
    const before = receiver.requests.length;
    expect((await sut.post('/internal/tokens/validate', { jti: (await sut.token(account.id)).jti })).status).toBe(200);
    await waitFor(() => receiver.requests.length > before, 10_000, 'a delivery');
    return receiver.requests[receiver.requests.length - 1]!;
  };

  it('during the rollover window every delivery carries both signatures, the new one first', async () => {
    const { id, secret: oldSecret } = await sut.subscribe(account.id, 'wipe_session_ready', receiver.url);
    const rotated = await rotateWebhookSecret(sut.runtime.manage, (await findSubscription(sut.db, id))!);
    expect(rotated.signingSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(Date.parse(rotated.previousSecretExpiresAt) - Date.now()).toBeGreaterThan(23 * 3_600_000);
    const delivery = await fire();
    const parts = String(delivery.headers['x-erase-engine-signature']).split(' ');
    expect(parts).toHaveLength(2);
    expect(signatureValid(rotated.signingSecret, { ...delivery, headers: { ...delivery.headers, 'x-erase-engine-signature': parts[0] } })).toBe(true);
    expect(signatureValid(oldSecret, { ...delivery, headers: { ...delivery.headers, 'x-erase-engine-signature': parts[1] } })).toBe(true);
  });

  it('after the window only the new secret signs, and the old one alone no longer verifies', async () => {
    const { id, secret: oldSecret } = await sut.subscribe(account.id, 'wipe_session_ready', receiver.url);
    // Rotated two days ago with the default 24 h window: the window is over.
    const twoDaysAgo = { now: () => new Date(Date.now() - 2 * 86_400_000) };
    const rotated = await rotateWebhookSecret({ ...sut.runtime.manage, clock: twoDaysAgo }, (await findSubscription(sut.db, id))!);
    const delivery = await fire();
    expect(String(delivery.headers['x-erase-engine-signature']).split(' ')).toHaveLength(1);
    expect(signatureValid(rotated.signingSecret, delivery)).toBe(true);
    expect(signatureValid(oldSecret, delivery)).toBe(false);
  });

  it('the page offers it to admins only; the new secret is shown once', async () => {
    const { id } = await sut.subscribe(account.id, 'wipe_session_ready', receiver.url);
    const cloud = { app: sut.app, db: sut.db, clock: systemClock } as unknown as Cloud;
    const admin = await signIn(cloud, (await addUser(cloud, account.id, 'admin')).email);
    const technician = await signIn(cloud, (await addUser(cloud, account.id, 'technician')).email);
    expect((await technician.send('POST', `/app/api/webhooks/${id}/rotate-secret`)).status).toBe(403);
    const res = await admin.send('POST', `/app/api/webhooks/${id}/rotate-secret`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id, signing_secret: expect.stringMatching(/^[0-9a-f]{64}$/), previous_secret_expires_at: expect.any(String) });
    const list = await admin.get('/app/api/webhooks');
    expect(list.text).not.toContain(res.json.signing_secret);
    expect(list.json.webhooks[0].previous_secret_expires_at).toBe(res.json.previous_secret_expires_at);
    const delivery = await fire();
    expect(signatureValid(res.json.signing_secret, delivery)).toBe(true);
  });

  it('admin rotate-webhook-secret prints the new secret and the window end', async () => {
    const { id } = await sut.subscribe(account.id, 'wipe_session_ready', receiver.url);
    const printed = await runAdmin({ db: sut.db, clock: systemClock, deviceTokenPrivateKey: undefined, webhookSecretRolloverMs: 3_600_000 }, 'rotate-webhook-secret', { id });
    expect(printed).toMatchObject({ id, signing_secret: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const until = Date.parse((printed as { previous_secret_expires_at: string }).previous_secret_expires_at) - Date.now();
    expect(until).toBeGreaterThan(3_500_000);
    expect(until).toBeLessThanOrEqual(3_600_000);
  });
});
