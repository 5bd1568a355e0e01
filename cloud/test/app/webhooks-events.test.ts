import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/adapters/clock.js';
import { localObjectStore } from '../../src/adapters/objects/local-store.js';
import { loadCertificateKeys } from '../../src/adapters/certificate-keys.js';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../src/domain/webhooks/types.js';
import { drainCertificateJobs } from '../../src/jobs/certificate-worker.js';
import { retryDelayMs } from '../../src/jobs/generate-certificate.js';
import { inProcessRenderer } from '../../src/jobs/renderer.js';
import { testFonts } from '../certificates/fixtures.js';
import { wipeBody } from '../certificates/pipeline.js';
import { fingerprint, issueCheckin } from '../helpers.js';
import { signatureValid, startReceiver, startWebhookCloud, waitFor, type WebhookCloud } from '../webhook-helpers.js';

let sut: WebhookCloud;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let secrets: Record<string, string>;
let account: { id: number; publicId: string };

beforeEach(async () => {
  sut = await startWebhookCloud();
  receiver = await startReceiver();
  account = await sut.account();
  secrets = {};
  // One subscription per event type (spec 6), all to the same receiver.
  for (const type of WEBHOOK_EVENT_TYPES) secrets[type] = (await sut.subscribe(account.id, type, `${receiver.url}/${type}`)).secret;
});

afterEach(async () => {
  await sut.close();
  await receiver.close();
});

/** The certificate job's real dependencies; its `certificate_generated` hook is the cloud's. */
async function certificateJobs() {
  const keys = await loadCertificateKeys({ db: sut.db, dataDir: sut.dir });
  const store = localObjectStore(join(sut.dir, 'objects'));
  const jobDeps = {
    db: sut.db,
    clock: systemClock,
    store,
    renderer: inProcessRenderer(testFonts()),
    signing: keys.signing,
    pdfSigning: keys.pdfSigning,
    publicBaseUrl: 'https://cloud.example.test',
    leaseMs: 60_000,
    maxAttempts: 5,
    retryDelayMs: (attempt: number) => retryDelayMs(attempt),
    onCertificateGenerated: sut.runtime.events.certificateGenerated,
  };
  return { jobDeps, store };
}

const ofType = (type: WebhookEventType) => receiver.requests.filter((r) => r.json?.event_type === type);
/** Waits until the ledger is settled, then for `count` receipts in total. */
const settle = (count: number) =>
  waitFor(async () => receiver.requests.length >= count && (await sut.deliveries()).every((d) => d.status === 'delivered'), 10_000, `${count} deliveries`);

describe('webhook events (spec 6): each fires exactly once, signed, through a real receiver', () => {
  it('signs every delivery as spec 6 says, verified by an independent HMAC', async () => {
    const token = await sut.token(account.id);
    expect((await sut.post('/internal/tokens/validate', { jti: token.jti })).status).toBe(200);
    await settle(1);
    const [request] = receiver.requests;
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['x-erase-engine-event']).toBe('wipe_session_ready');
    expect(request!.headers['x-erase-engine-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(signatureValid(secrets.wipe_session_ready!, request!)).toBe(true);
    expect(signatureValid(secrets.asset_reported!, request!)).toBe(false);
    expect(signatureValid(secrets.wipe_session_ready!, { ...request!, body: `${request!.body} ` })).toBe(false);
    // The ledger stores exactly the signed bytes.
    expect((await sut.deliveries())[0]!.payload).toBe(request!.body);
  });

  it('check-in: ready on allow, blocked (phase checkin) on deny; verify deny: blocked (phase verify)', async () => {
    const token = await sut.token(account.id, { quota: 1 });
    const allowed = await sut.post('/internal/tokens/validate', { jti: token.jti });
    const denied = await sut.post('/internal/tokens/validate', { jti: token.jti });
    const verifyDenied = await sut.post('/internal/tokens/verify', { jti: token.jti });
    const verifyAllowedOther = await sut.post('/internal/tokens/verify', { jti: (await sut.token(account.id)).jti });
    expect([allowed.status, denied.status, verifyDenied.status, verifyAllowedOther.status]).toEqual([200, 403, 403, 200]);
    await settle(3);
    const [ready] = ofType('wipe_session_ready');
    expect(ofType('wipe_session_ready')).toHaveLength(1);
    expect(ready!.json).toMatchObject({
      event_type: 'wipe_session_ready',
      account_id: account.publicId,
      license_token_id: token.prefix_id,
      job_id: allowed.json.job_id,
      quota_remaining: 0,
      revision: 1,
    });
    // Arrival order is not guaranteed (deliveries run concurrently): the revision orders them.
    const blocked = ofType('wipe_session_blocked')
      .map((r) => r.json)
      .sort((a, b) => a.revision - b.revision);
    expect(blocked.map((b) => [b.phase, b.reason, b.revision])).toEqual([
      ['checkin', 'quota_exceeded', 2],
      ['verify', 'quota_exceeded', 3],
    ]);
    expect(new Set(receiver.requests.map((r) => r.json.event_id)).size).toBe(3);
  });

  it('asset_reported fires on the first boot only; hardware_tests_completed on each snapshot', async () => {
    const token = await sut.token(account.id);
    const boot = { jti: token.jti, record_id: 'CW-20261122-120000', engine_version: '1.4.0', fingerprint: fingerprint() };
    expect((await sut.post('/internal/assets', boot)).status).toBe(201);
    expect((await sut.post('/internal/assets', { ...boot, record_id: 'CW-20261122-130000' })).status).toBe(201);
    const tests = { keyboard: { status: 'passed' }, display: { status: 'failed', detail: 'dead pixels' } };
    expect((await sut.post('/internal/assets/tests', { jti: token.jti, record_id: 'CW-20261122-130000', tests })).status).toBe(200);
    expect((await sut.post('/internal/assets/notes', { jti: token.jti, record_id: 'CW-20261122-130000', notes: 'scuffed' })).status).toBe(200);
    await settle(2);
    const [reported] = ofType('asset_reported');
    expect(ofType('asset_reported')).toHaveLength(1);
    expect(reported!.json).toMatchObject({ type: 'asset', record_id: 'CW-20261122-120000', serial_number: 'B5QVN32', revision: 1 });
    expect(reported!.json.asset_url).toBe(`https://cloud.example.test/api/v1/assets/${reported!.json.id}`);
    const [tested] = ofType('hardware_tests_completed');
    expect(tested!.json).toMatchObject({ id: reported!.json.id, tests, summary: { passed: 1, failed: 1 }, all_passed: false, revision: 2 });
    expect(receiver.requests).toHaveLength(2); // notes fire nothing
  });

  it('wipe_session_completed: first certifiable receipt only, with exactly the wipe_report fields', async () => {
    const token = await sut.token(account.id);
    await issueCheckin(sut.db, token.jti, 'job-1'); // the run `job`, whose drives report job-1, job-2, …
    const first = await sut.post('/internal/wipe_results', wipeBody(token.jti, 'job-1'));
    expect((await sut.post('/internal/wipe_results', wipeBody(token.jti, 'job-1'))).status).toBe(200);
    expect((await sut.post('/internal/wipe_results', wipeBody(token.jti, 'job-2', { wipe_status: 'failed' }))).status).toBe(201);
    expect((await sut.post('/internal/wipe_results', wipeBody(token.jti, 'job-3', { validation: 'rejected' }))).status).toBe(201);
    expect(first.status).toBe(201);
    await settle(1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(receiver.requests).toHaveLength(1);
    const report = receiver.requests[0]!.json;
    const cert = (await sut.db.one<{ public_id: string }>('SELECT public_id FROM certificates'))!;
    expect(Object.keys(report)).toEqual([
      'event_id', 'event_type', 'id', 'type', 'product', 'created_at', 'updated_at', 'revision', 'job_id', 'serial', 'model',
      'capacity_bytes', 'capacity_display', 'erase_algorithm', 'erase_algorithm_display', 'erase_technique', 'status_display',
      'erase_result_display', 'erase_start_time', 'erase_finish_time', 'certificate_status', 'certificate_url', 'pdf_url',
      'license_token_id', 'operator',
      // Issue 31 item 6, appended (spec 6: further fields are not shown).
      'customer', 'lot_reference', 'asset_tag',
    ]);
    expect(report).toMatchObject({
      event_type: 'wipe_session_completed',
      id: first.json.wipe_result_id,
      type: 'wipe_report',
      product: 'engine',
      revision: 1,
      job_id: 'job-1',
      serial: 'S4DYNX0M123456',
      capacity_bytes: 512_000_000_000,
      capacity_display: '512 GB',
      erase_algorithm: 'nist_800_88_r2_purge',
      erase_algorithm_display: 'NIST 800-88 R2 Purge',
      erase_technique: 'NVMe Sanitize, crypto erase',
      status_display: 'Completed',
      erase_result_display: 'Pass',
      erase_start_time: '2026-11-22T10:00:00Z',
      erase_finish_time: '2026-11-22T10:12:30Z',
      certificate_status: 'pending',
      certificate_url: `https://cloud.example.test/certificates/${cert.public_id}`,
      pdf_url: null,
      license_token_id: token.prefix_id,
      operator: 'tech@example.com',
      customer: null,
      lot_reference: null,
      asset_tag: null,
    });
  });

  it('certificate_generated fires once, after the certificate job stored both PDFs', async () => {
    const token = await sut.token(account.id);
    await issueCheckin(sut.db, token.jti, 'job-cert-0');
    const stored = await sut.post('/internal/wipe_results', wipeBody(token.jti, 'job-cert-0'));
    const { jobDeps, store } = await certificateJobs();
    expect(await drainCertificateJobs(jobDeps)).toBe(1);
    expect(await drainCertificateJobs(jobDeps)).toBe(0);
    await settle(2);
    const [generated] = ofType('certificate_generated');
    expect(ofType('certificate_generated')).toHaveLength(1);
    const cert = (await sut.db.one<Record<string, string>>('SELECT public_id, certificate_number, status, certificate_key FROM certificates'))!;
    expect(cert.status).toBe('complete');
    expect(await store.get(cert.certificate_key!)).toBeDefined();
    expect(generated!.json).toMatchObject({
      type: 'certificate',
      id: cert.public_id,
      account_id: account.publicId,
      certificate_number: cert.certificate_number,
      wipe_result_id: stored.json.wipe_result_id,
      job_id: 'job-cert-0',
      certificate_status: 'complete',
      pdf_url: `https://cloud.example.test/certificates/${cert.public_id}`,
      verify_url: `https://cloud.example.test/certificates/${cert.public_id}/verify`,
      revision: 1,
    });
    expect(signatureValid(secrets.certificate_generated!, generated!)).toBe(true);
  });

  // Issue 31 item 6: the job details typed at the kiosk ride on the wipe's events; a wipe that
  // names no record keeps the token's customer and lot, and no asset tag.
  it('wipe_session_completed and certificate_generated carry the customer, lot and asset tag of the job details', async () => {
    const token = await sut.token(account.id, { customer: 'Northwind Schools', lot: 'LOT-DEFAULT' });
    const boot = { jti: token.jti, record_id: 'CW-20261122-140000', engine_version: '1.4.0', fingerprint: fingerprint() };
    expect((await sut.post('/internal/assets', boot)).status).toBe(201);
    const details = { jti: token.jti, record_id: boot.record_id, lot_reference: 'LOT-2026-11-077', asset_tag: 'AT-004211' };
    expect((await sut.post('/internal/assets/job_details', details)).status).toBe(200);
    await issueCheckin(sut.db, token.jti, 'job-jd-0');
    const tagged = await sut.post('/internal/wipe_results', { ...wipeBody(token.jti, 'job-jd-0'), record_id: boot.record_id });
    const plain = await sut.post('/internal/wipe_results', wipeBody(token.jti, 'job-jd-1', { drive_serial: 'OTHER-SERIAL' }));
    expect([tagged.status, plain.status]).toEqual([201, 201]);
    const { jobDeps } = await certificateJobs();
    expect(await drainCertificateJobs(jobDeps)).toBe(2);
    await settle(5); // asset_reported, two wipe reports, two certificates
    const byWipe = (type: WebhookEventType, key: string) =>
      Object.fromEntries(ofType(type).map((r) => [r.json[key], [r.json.customer, r.json.lot_reference, r.json.asset_tag]]));
    const expected = {
      [tagged.json.wipe_result_id]: ['Northwind Schools', 'LOT-2026-11-077', 'AT-004211'],
      [plain.json.wipe_result_id]: ['Northwind Schools', 'LOT-DEFAULT', null],
    };
    expect(byWipe('wipe_session_completed', 'id')).toEqual(expected);
    expect(byWipe('certificate_generated', 'wipe_result_id')).toEqual(expected);
  });

  it('writes nothing for an account without subscriptions', async () => {
    const other = await sut.account('Other');
    const token = await sut.token(other.id);
    expect((await sut.post('/internal/tokens/validate', { jti: token.jti })).status).toBe(200);
    expect(await sut.db.one('SELECT count(*) AS n FROM webhook_events')).toEqual({ n: 0 });
  });

  it('check-in for an account subscribed to other events only: spent and recorded, wipe_session_ready not written', async () => {
    const other = await sut.account('Other');
    await sut.subscribe(other.id, 'wipe_session_blocked', `${receiver.url}/other`);
    const token = await sut.token(other.id, { quota: 1 });
    const allowed = await sut.post('/internal/tokens/validate', { jti: token.jti });
    const denied = await sut.post('/internal/tokens/validate', { jti: token.jti });
    expect([allowed.status, denied.status]).toEqual([200, 403]);
    expect(await sut.db.one('SELECT use_count FROM license_tokens WHERE jti = @jti', { jti: token.jti })).toEqual({ use_count: 1 });
    expect(await sut.db.many('SELECT job_id FROM checkins WHERE token_id = @id', { id: token.id })).toEqual([{ job_id: allowed.json.job_id }]);
    expect(await sut.db.many('SELECT event_type FROM webhook_events WHERE account_id = @id', { id: other.id })).toEqual([
      { event_type: 'wipe_session_blocked' },
    ]);
  });

  it('a wipe_session_ready subscription takes effect on the very next check-in', async () => {
    const other = await sut.account('Other');
    const token = await sut.token(other.id);
    expect((await sut.post('/internal/tokens/validate', { jti: token.jti })).status).toBe(200);
    await sut.subscribe(other.id, 'wipe_session_ready', `${receiver.url}/other`);
    const listened = await sut.post('/internal/tokens/validate', { jti: token.jti });
    expect(listened.status).toBe(200);
    const events = await sut.db.many<{ event_type: string; payload: string }>(
      'SELECT event_type, payload FROM webhook_events WHERE account_id = @id',
      { id: other.id },
    );
    expect(events.map((e) => [e.event_type, JSON.parse(e.payload).job_id])).toEqual([['wipe_session_ready', listened.json.job_id]]);
    expect(await sut.db.one('SELECT use_count FROM license_tokens WHERE jti = @jti', { jti: token.jti })).toEqual({ use_count: 2 });
  });
});
