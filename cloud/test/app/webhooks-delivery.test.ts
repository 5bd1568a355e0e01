import { afterEach, describe, expect, it } from 'vitest';
import { findSubscription } from '../../src/adapters/db/webhook-subscriptions.js';
import { setWebhookActive } from '../../src/domain/webhooks/manage.js';
import { signatureValid, startReceiver, startWebhookCloud, waitFor, type WebhookCloud } from '../webhook-helpers.js';

let sut: WebhookCloud | undefined;
let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;

afterEach(async () => {
  await sut?.close();
  await receiver?.close();
  sut = receiver = undefined;
});

const attemptLog = (cloud: WebhookCloud) =>
  cloud.db.many('SELECT attempt, outcome, response_code, error FROM webhook_attempts ORDER BY delivery_id, attempt');

describe('webhook delivery (spec 6 "Delivery policy", production)', () => {
  it('a receiver failing twice then succeeding ends delivered after 3 attempts, same event_id each time', async () => {
    receiver = await startReceiver((index) => (index < 2 ? 503 : 204));
    sut = await startWebhookCloud();
    const account = await sut.account();
    const { secret } = await sut.subscribe(account.id, 'wipe_session_ready', receiver.url);
    expect((await sut.post('/internal/tokens/validate', { jti: (await sut.token(account.id)).jti })).status).toBe(200);
    await waitFor(async () => (await sut!.deliveries())[0]?.status === 'delivered', 10_000, 'delivery');
    expect(await sut.deliveries()).toMatchObject([{ status: 'delivered', attempts: 3, response_code: 204 }]);
    expect(await attemptLog(sut)).toEqual([
      { attempt: 1, outcome: 'failed', response_code: 503, error: 'HTTP 503' },
      { attempt: 2, outcome: 'failed', response_code: 503, error: 'HTTP 503' },
      { attempt: 3, outcome: 'delivered', response_code: 204, error: null },
    ]);
    expect(receiver.requests).toHaveLength(3);
    expect(new Set(receiver.requests.map((r) => r.json.event_id)).size).toBe(1);
    expect(new Set(receiver.requests.map((r) => r.body)).size).toBe(1);
    expect(receiver.requests.every((r) => signatureValid(secret, r))).toBe(true);
    // Recovered: the failure budget is back to zero.
    const sub = (await sut.db.one<Record<string, unknown>>('SELECT failure_count, active, last_success_at FROM webhook_subscriptions'))!;
    expect(sub).toMatchObject({ failure_count: 0, active: 1 });
    expect(sub.last_success_at).not.toBeNull();
  });

  it('one event failing 5 times in a row auto-disables its subscription; the delivery then waits as skipped', async () => {
    receiver = await startReceiver(() => 500);
    sut = await startWebhookCloud({ retryBaseMs: 1 });
    const account = await sut.account();
    await sut.subscribe(account.id, 'wipe_session_ready', receiver.url);
    expect((await sut.post('/internal/tokens/validate', { jti: (await sut.token(account.id)).jti })).status).toBe(200);
    await waitFor(async () => {
      const [first] = await sut!.deliveries();
      return first?.status !== 'pending' && first;
    }, 10_000, 'terminal state');
    // Attempt-level health: 5 consecutive failed attempts disable before the 8-attempt round ends.
    expect((await sut.deliveries())[0]).toMatchObject({ status: 'skipped', attempts: 5 });
    expect(receiver.requests).toHaveLength(5);
  });

  it('sends bearer and basic credentials in Authorization', async () => {
    receiver = await startReceiver();
    sut = await startWebhookCloud();
    const account = await sut.account();
    await sut.subscribe(account.id, 'wipe_session_ready', `${receiver.url}/bearer`, { auth_type: 'bearer', token: 'tok-123' });
    await sut.subscribe(account.id, 'wipe_session_ready', `${receiver.url}/basic`, { auth_type: 'basic', username: 'erp', password: 'p@ss:word' });
    await sut.subscribe(account.id, 'wipe_session_ready', `${receiver.url}/none`);
    expect((await sut.post('/internal/tokens/validate', { jti: (await sut.token(account.id)).jti })).status).toBe(200);
    await waitFor(() => receiver!.requests.length === 3, 10_000, 'three receipts');
    const auths = receiver.requests.map((r) => r.headers.authorization ?? null).sort();
    expect(auths).toEqual([`Basic ${Buffer.from('erp:p@ss:word').toString('base64')}`, 'Bearer tok-123', null].sort());
    // One event, three subscriptions: the same event_id reaches each.
    expect(new Set(receiver.requests.map((r) => r.json.event_id)).size).toBe(1);
  });

  it('5 consecutive failures auto-disable; re-enabling resets the budget and redelivers oldest first', async () => {
    receiver = await startReceiver(() => 500);
    // One attempt at a time, so the order of receipt is the order of dispatch.
    sut = await startWebhookCloud({ retryBaseMs: 60_000, concurrency: 1 });
    const account = await sut.account();
    const { id } = await sut.subscribe(account.id, 'wipe_session_ready', receiver.url);
    const token = await sut.token(account.id);
    const jobs: string[] = [];
    for (let i = 0; i < 5; i++) jobs.push((await sut.post('/internal/tokens/validate', { jti: token.jti })).json.job_id);
    let sub = await waitFor(async () => {
      const row = (await findSubscription(sut!.db, id))!;
      return !row.active && row;
    }, 10_000, 'auto-disable');
    expect(sub).toMatchObject({ active: false, failure_count: 5, last_error: 'HTTP 500' });
    expect(sub.auto_disabled_at).not.toBeNull();
    expect(receiver.requests).toHaveLength(5);
    // While disabled, events are recorded as skipped and nothing is sent.
    for (let i = 0; i < 2; i++) jobs.push((await sut.post('/internal/tokens/validate', { jti: token.jti })).json.job_id);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(receiver.requests).toHaveLength(5);
    expect((await sut.deliveries()).map((d) => d.status).slice(5)).toEqual(['skipped', 'skipped']);

    receiver.respond(() => 200);
    const enabled = await setWebhookActive(sut.runtime.manage, sub, true);
    expect(enabled.reconciled).toBe(7);
    expect(enabled.row).toMatchObject({ active: true, failure_count: 0, auto_disabled_at: null });
    await waitFor(async () => (await sut!.deliveries()).every((d) => d.status === 'delivered'), 10_000, 'reconciliation');
    expect(receiver.requests.slice(5).map((r) => r.json.job_id)).toEqual(jobs);
    sub = (await findSubscription(sut.db, id))!;
    expect(sub.failure_count).toBe(0);
  });
});
