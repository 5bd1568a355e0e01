import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { posterOf, type HttpPoster } from '../../src/adapters/http-post.js';
import { createOutboundClient } from '../../src/adapters/outbound-http.js';
import { fingerprint, startCloud, type Cloud } from '../helpers.js';
import { addUser, reportAsset, reportWipe, signIn, type Browser } from '../web-helpers.js';

describe('/wipes grid data (spec 4.5)', () => {
  let cloud: Cloud;
  let admin: Browser;
  let account: Awaited<ReturnType<Cloud['account']>>;
  let engine: string;
  let hotswap: string;
  const pushes: { url: string; body: string; headers: Record<string, string> }[] = [];
  let pushStatus = 200;
  const poster: HttpPoster = async (url, body, headers) => {
    pushes.push({ url, body, headers });
    return { ok: true, status: pushStatus };
  };

  beforeEach(async () => {
    pushes.length = 0;
    pushStatus = 200;
    cloud = await startCloud({ deps: { httpPoster: poster } });
    account = await cloud.account('Acme Refurb');
    engine = (await cloud.token(account.id, { userEmail: 'ana@acme.test' })).jti;
    hotswap = (await cloud.token(account.id, { userEmail: 'bo@acme.test', product: 'hotswap' })).jti;
    await addUser(cloud, account.id, 'admin', 'admin@acme.test');
    admin = await signIn(cloud, 'admin@acme.test');
  });
  afterEach(() => cloud.close());

  const rows = async (page = 1) => (await admin.get(`/app/api/wipes?page=${page}`)).json;

  it('derives every column: vendor, media type and source from the matched machine, duration, badges', async () => {
    const assetId = await reportAsset(cloud, engine, 'CW-20261122-120000', fingerprint(undefined, undefined, {
      storage: [
        { model: 'SAMSUNG MZVLB512HAJQ', serial: 'S4DYNX0M123456', size_bytes: 512_110_190_592, media_type: 'SSD' },
        { model: 'ST1000DM003-1CH162', serial: 'Z1D5K2XX', size_bytes: 1_000_204_886_016, media_type: 'HDD' },
      ],
    }));
    cloud.clock.advance(1000);
    await reportWipe(cloud, engine, { job_id: 'job-ssd-0', wipe_status: 'completed' });
    cloud.clock.advance(1000);
    await reportWipe(cloud, engine, { job_id: 'job-hdd', drive_model: 'ST1000DM003-1CH162', drive_serial: 'Z1D5K2XX', drive_capacity_gb: 1000, wipe_status: 'failed' });
    cloud.clock.advance(1000);
    await reportWipe(cloud, hotswap, { job_id: 'job-bay', drive_model: 'WDC WD10EZEX-08WN4A0', drive_serial: 'WD-WCC6Y0', started_at: undefined });
    cloud.clock.advance(1000);
    await reportWipe(cloud, engine, { job_id: 'job-odd', drive_model: 'Mystery Disk', drive_serial: 'NOPE', wipe_status: 'cancelled' });
    cloud.clock.advance(1000);
    await reportWipe(cloud, engine, { job_id: 'job-rejected', drive_serial: 'NOPE2', validation: 'rejected' });

    const data = await rows();
    expect(data).toMatchObject({ page: 1, pages: 1, count: 5, page_size: 100, statuses: [{ value: 'completed', label: 'Pass' }, { value: 'failed', label: 'Fail' }, { value: 'cancelled', label: 'Cancelled' }], push: { configured: false, can_configure: true } });
    const [rejected, odd, bay, hdd, ssd] = data.rows;
    expect(ssd).toMatchObject({
      vendor: 'Samsung',
      model: 'SAMSUNG MZVLB512HAJQ',
      serial: 'S4DYNX0M123456',
      capacity_gb: 512,
      media_type: 'SSD',
      method: 'NIST 800-88 R2 Purge',
      source: { kind: 'asset', asset_id: assetId, label: 'Latitude 7490 · B5QVN32' },
      duration_seconds: 750,
      status: 'completed',
      status_label: 'Pass',
      status_tone: 'pass',
      technician: 'ana@acme.test',
      completed_at: '2026-11-22T10:12:30Z',
      certificate: { kind: 'badge', label: 'Pending' },
      // The exact size from the machine's storage list (issue 31 item 4).
      capacity_bytes: 512_110_190_592,
    });
    // Why no certificate: in plain words, and the stored reason for Details (issue 31 item 4).
    expect(hdd).toMatchObject({
      vendor: 'Seagate',
      media_type: 'HDD',
      status_label: 'Fail',
      status_tone: 'fail',
      capacity_bytes: 1_000_204_886_016,
      certificate: { kind: 'not_issued', reason: 'The erasure failed', detail: 'wipe_status failed' },
    });
    expect(bay).toMatchObject({
      vendor: 'Western Digital',
      media_type: null,
      source: { kind: 'hotswap' },
      duration_seconds: null,
      status: 'completed',
      status_label: 'Pass',
      technician: 'bo@acme.test',
      certificate: { kind: 'badge', label: 'Pending' },
    });
    expect(bay).toMatchObject({ capacity_bytes: null });
    expect(odd).toMatchObject({
      vendor: null,
      source: { kind: 'none' },
      status_label: 'Cancelled',
      status_tone: 'neutral',
      certificate: { kind: 'not_issued', reason: 'The erasure was cancelled', detail: 'wipe_status cancelled' },
    });
    expect(rejected).toMatchObject({
      status_label: 'Pass',
      certificate: { kind: 'not_issued', reason: 'The device did not approve the erasure\u2019s verification', detail: 'validation rejected' },
    });
  });

  it('shows a hotswap wipe as Hotswap with its bay, even when the chassis’s boot report listed the drive', async () => {
    // The station's asset report at boot saw the drive seated in a bay, so the chassis asset's storage lists it.
    const chassis = await reportAsset(cloud, hotswap, 'CW-20261122-090000', fingerprint('4c4c4544-0042-3510-8052-b4c04f4e3232', 'CHASSIS-01', {
      system: { manufacturer: 'Supermicro', product: 'SC846', serial: 'CHASSIS-01', uuid: '4c4c4544-0042-3510-8052-b4c04f4e3232' },
      storage: [
        { model: 'INTEL SSDSC2KB480G8', serial: 'BOOT-SSD-1', size_bytes: 480_103_981_056, media_type: 'SSD' },
        { model: 'WDC WD10EZEX-08WN4A0', serial: 'WD-BAY3', size_bytes: 1_000_204_886_016, media_type: 'HDD' },
      ],
    }));
    cloud.clock.advance(1000);
    await reportWipe(cloud, hotswap, { job_id: 'job-bay3', drive_model: 'WDC WD10EZEX-08WN4A0', drive_serial: 'WD-BAY3', tool_components: 'erasure-agent 0.1.0; bay=Bay 3; chassis=Front cage' });
    cloud.clock.advance(1000);
    await reportWipe(cloud, hotswap, { job_id: 'job-bare', drive_serial: 'WD-BAY3' });
    cloud.clock.advance(1000);
    await reportWipe(cloud, engine, { job_id: 'job-boot-0', drive_model: 'INTEL SSDSC2KB480G8', drive_serial: 'BOOT-SSD-1' });

    const [internal, bare, bay] = (await rows()).rows;
    expect(bay).toMatchObject({ job_id: 'job-bay3', source: { kind: 'hotswap', bay: 'Bay 3', chassis: 'Front cage' }, media_type: 'HDD' });
    expect(bare.source).toEqual({ kind: 'hotswap' });
    // Not a station wipe: the chassis's own drive still links its machine.
    expect(internal.source).toEqual({ kind: 'asset', asset_id: chassis, label: 'SC846 · CHASSIS-01' });
  });

  it('lists newest first, 100 rows per page, only the signed-in account’s wipes', async () => {
    const other = await cloud.account('Other');
    await reportWipe(cloud, (await cloud.token(other.id)).jti, { job_id: 'theirs' });
    for (let i = 0; i < 105; i++) {
      cloud.clock.advance(1000);
      await reportWipe(cloud, engine, { job_id: `job-${i}` });
    }
    const first = await rows(1);
    expect(first).toMatchObject({ page: 1, pages: 2, count: 105 });
    expect(first.rows).toHaveLength(100);
    expect(first.rows[0].job_id).toBe('job-104');
    const second = await rows(2);
    expect(second.rows.map((r: { job_id: string }) => r.job_id)).toEqual(['job-4', 'job-3', 'job-2', 'job-1', 'job-0']);
  });

  it('links an issued certificate by number and shows pending, generating and failed ones as badges', async () => {
    const done = await reportWipe(cloud, engine, { job_id: 'done-0' });
    const generating = await reportWipe(cloud, engine, { job_id: 'gen-0' });
    const failed = await reportWipe(cloud, engine, { job_id: 'failed-0' });
    const pending = await reportWipe(cloud, engine, { job_id: 'pending-0' });
    const setStatus = async (wr: string, status: string) => {
      const id = (await cloud.db.one<{ id: number }>('SELECT id FROM wipe_results WHERE public_id = @wr', { wr }))!.id;
      await cloud.db.run('UPDATE wipe_results SET certificate_status = @status WHERE id = @id', { status, id });
      await cloud.db.run('UPDATE certificates SET status = @status WHERE wipe_result_id = @id', { status, id });
    };
    await setStatus(done, 'complete');
    await setStatus(generating, 'generating');
    await setStatus(failed, 'failed');
    const cert = (await cloud.db.one<{ public_id: string; certificate_number: string }>(
      'SELECT c.public_id, c.certificate_number FROM certificates c JOIN wipe_results w ON w.id = c.wipe_result_id WHERE w.public_id = @done',
      { done },
    ))!;
    const cells = Object.fromEntries((await rows()).rows.map((r: any) => [r.id, r.certificate]));
    expect(cells[done]).toEqual({ kind: 'issued', id: cert.public_id, number: cert.certificate_number });
    expect(cert.public_id).toMatch(/^cert_/);
    expect(cells[generating]).toEqual({ kind: 'badge', label: 'Generating' });
    expect(cells[failed]).toEqual({ kind: 'badge', label: 'Failed' });
    expect(cells[pending]).toEqual({ kind: 'badge', label: 'Pending' });
  });

  it('pushes selected rows, signed like webhooks, only to the admin-configured target and only this account’s rows', async () => {
    const mine = await reportWipe(cloud, engine, { job_id: 'mine' });
    const theirs = await reportWipe(cloud, (await cloud.token((await cloud.account('Other')).id)).jti, { job_id: 'theirs' });
    expect((await admin.send('POST', '/app/api/wipes/push', { ids: [mine] })).status).toBe(409);
    expect((await admin.send('PUT', '/app/api/integrations/push', { url: 'http://hooks.example/in' })).json).toEqual({ error: 'url must use https' });
    const saved = await admin.send('PUT', '/app/api/integrations/push', { url: 'https://hooks.example/in', secret: 'a-shared-secret-123' });
    expect(saved.json).toEqual({ configured: true, url: 'https://hooks.example/in', generated_secret: null });

    const res = await admin.send('POST', '/app/api/wipes/push', { ids: [mine, theirs] });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ ok: true, status: 200, pushed: 1 });
    const [sent] = pushes;
    expect(sent!.url).toBe('https://hooks.example/in');
    const body = JSON.parse(sent!.body);
    expect(body).toMatchObject({ event_type: 'wipe_reports_pushed', account_id: account.publicId, count: 1 });
    expect(body.rows.map((r: { id: string }) => r.id)).toEqual([mine]);
    const expected = createHmac('sha256', 'a-shared-secret-123').update(`${sent!.headers['x-erase-engine-timestamp']}.${sent!.body}`).digest('hex');
    expect(sent!.headers['x-erase-engine-signature']).toBe(`sha256=${expected}`);

    pushStatus = 500;
    const failed = await admin.send('POST', '/app/api/wipes/push', { ids: [mine] });
    expect(failed.status).toBe(502);
    expect(failed.json).toEqual({ ok: false, status: 500, error: 'push failed: target answered HTTP 500' });
    expect((await admin.send('POST', '/app/api/wipes/push', { ids: [] })).status).toBe(422);
  });

  it('generates a secret when the admin leaves it blank, and keeps the target admin-only', async () => {
    const saved = await admin.send('PUT', '/app/api/integrations/push', { url: 'https://hooks.example/in', secret: '' });
    expect(saved.json.generated_secret).toMatch(/^[0-9a-f]{64}$/);
    expect((await admin.get('/app/api/integrations/push')).json).toMatchObject({ configured: true, url: 'https://hooks.example/in' });
    await addUser(cloud, account.id, 'technician', 'tech@acme.test');
    const tech = await signIn(cloud, 'tech@acme.test');
    expect((await tech.send('PUT', '/app/api/integrations/push', { url: 'https://x.example' })).status).toBe(403);
    expect((await tech.get('/app/api/wipes')).json.push).toEqual({ configured: true, url: 'https://hooks.example/in', can_configure: false });
    expect((await admin.send('DELETE', '/app/api/integrations/push')).json).toEqual({ configured: false });
  });
});

describe('push HTTP client', () => {
  it('gives up after its timeout and reports it as a value', async () => {
    const server = createServer(() => undefined).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const client = createOutboundClient({ allowHttp: true, allowLoopback: true, timeoutMs: 200 });
      const outcome = await posterOf(client)(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, '{}', { 'content-type': 'application/json' });
      expect(outcome).toMatchObject({ ok: false, error: 'no answer within 0.2 s', failure: 'timeout' });
      await client.close();
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
