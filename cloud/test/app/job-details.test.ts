import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PublicWipe, conforms } from '@erasure/shared';
import { mintApiKey } from '../../src/adapters/db/api-key-issuance.js';
import { setAccountFreeEntry } from '../../src/adapters/db/job-details.js';
import { certificateOf, startCertificateCloud, submitWipe, type CertificateCloud } from '../certificates/pipeline.js';
import { fingerprint } from '../helpers.js';
import { addUser, signIn } from '../web-helpers.js';

/** One CSV line's cells (RFC 4180 quoting). */
const cellsOf = (line: string) => [...line.matchAll(/(?:^|,)("(?:[^"]|"")*"|[^,]*)/g)].map((m) => m[1]!.replace(/^"|"$/g, '').replace(/""/g, '"'));

// Issue 31 item 6: a customer, lot and asset tag typed or scanned at the kiosk reach the cloud
// through a device route beyond the spec (here its internal half, as the gateway forwards it),
// and land on the asset, the wipe rows of that boot's record, the grid, the CSV, the public API
// and both PDFs. The token's customer and lot stay the default.
describe('job details typed at the kiosk', () => {
  let sut: CertificateCloud;
  let work: string;
  beforeEach(async () => {
    sut = await startCertificateCloud();
    work = mkdtempSync(join(tmpdir(), 'job-details-'));
  });
  afterEach(async () => {
    await sut.close();
    rmSync(work, { recursive: true, force: true });
  });

  const boot = async (jti: string, recordId: string) => {
    const asset = await sut.post('/internal/assets', { jti, record_id: recordId, engine_version: '1.4.2', fingerprint: fingerprint() });
    expect(asset.status).toBe(201);
    return asset.json.asset_id as string;
  };
  const pdfText = async (key: string, name: string) => {
    const file = join(work, name);
    writeFileSync(file, (await sut.store.get(key))!);
    return execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
  };

  it('land on the asset, the wipe row, the grid, the CSV, the public API and both PDFs; the token’s customer stays the default', async () => {
    const account = await sut.account('Demo Refurbishing');
    const { jti } = await sut.token(account.id, { customer: 'Northwind Schools', lot: 'LOT-DEFAULT' });
    const assetId = await boot(jti, 'CW-20261122-100000');

    const saved = await sut.post('/internal/assets/job_details', { jti, record_id: 'CW-20261122-100000', lot_reference: ' LOT-2026-11-077 ', asset_tag: 'AT-004211' });
    expect(saved).toMatchObject({ status: 200, json: { ok: true, asset_id: assetId, customer: 'Northwind Schools', lot_reference: 'LOT-2026-11-077', asset_tag: 'AT-004211' } });
    expect(await sut.row('SELECT customer, lot_reference, job_asset_tag FROM assets WHERE public_id = @id', { id: assetId })).toEqual({
      customer: 'Northwind Schools',
      lot_reference: 'LOT-2026-11-077',
      job_asset_tag: 'AT-004211',
    });

    const tagged = await submitWipe(sut, jti, 'job-kiosk-0', { record_id: 'CW-20261122-100000' });
    // A wipe result that names no record keeps the token's customer and lot.
    await submitWipe(sut, jti, 'job-plain-0', { drive_serial: 'OTHER-SERIAL' });
    expect(await sut.row('SELECT customer, lot_reference, asset_tag FROM wipe_results WHERE public_id = @id', { id: tagged.wipe_result_id })).toEqual({
      customer: 'Northwind Schools',
      lot_reference: 'LOT-2026-11-077',
      asset_tag: 'AT-004211',
    });

    await addUser(sut, account.id, 'admin', 'admin@demo.test');
    const web = await signIn(sut, 'admin@demo.test');
    const grid = await web.get('/app/api/wipes');
    const cells = (grid.json.rows as { id: string; lot_reference: string; customer: string; asset_tag: string | null }[]).map((r) => [r.id, r.customer, r.lot_reference, r.asset_tag]);
    expect(cells).toContainEqual([tagged.wipe_result_id, 'Northwind Schools', 'LOT-2026-11-077', 'AT-004211']);
    expect(cells.filter((c) => c[0] !== tagged.wipe_result_id)).toEqual([[expect.any(String), 'Northwind Schools', 'LOT-DEFAULT', null]]);
    // The lot filter, the text search and the lists the filters offer know the kiosk's lot.
    expect((await web.get('/app/api/wipes?lot=LOT-2026-11-077')).json.count).toBe(1);
    expect((await web.get('/app/api/wipes?lot=LOT-DEFAULT')).json.count).toBe(1);
    expect((await web.get('/app/api/wipes?q=AT-0042')).json.count).toBe(1);
    expect((await web.get('/app/api/wipes')).json.facets.lots).toEqual(['LOT-2026-11-077', 'LOT-DEFAULT']);

    const csv = (await web.get('/app/api/wipes.csv?lot=LOT-2026-11-077')).text.trim().split(/\r?\n/);
    const header = cellsOf(csv[0]!);
    const row = cellsOf(csv[1]!);
    expect(row[header.indexOf('Lot / Job Reference')]).toBe('LOT-2026-11-077');
    expect(row[header.indexOf('Asset Tag')]).toBe('AT-004211');

    const { apiKey } = await mintApiKey(sut, { accountId: account.id, name: 'erp', createdByUserId: null });
    const api = await sut.app.inject({ method: 'GET', url: `/api/v1/wipes/${tagged.wipe_result_id}`, headers: { authorization: `Bearer ${apiKey}` } });
    const wipe = api.json() as unknown;
    expect(conforms(PublicWipe, wipe)).toBe(true);
    expect(wipe).toMatchObject({ customer: 'Northwind Schools', lot_reference: 'LOT-2026-11-077', asset_tag: 'AT-004211' });

    await sut.drain();
    const cert = await certificateOf(sut, tagged.wipe_result_id);
    const content = JSON.parse((await sut.row<{ content: string }>('SELECT content FROM certificates WHERE id = @id', { id: cert.id })).content);
    expect(content).toMatchObject({ schema: 'erasure-certificate/v5', customer: 'Northwind Schools', lot_reference: 'LOT-2026-11-077', asset_tag: 'AT-004211' });
    for (const [key, name] of [[cert.certificate_key!, 'certificate.pdf'], [cert.report_key!, 'report.pdf']] as const) {
      const text = await pdfText(key, name);
      expect(text).toContain('LOT-2026-11-077');
      expect(text).toContain('AT-004211');
    }
  });

  it('a station bay’s details go on that drive’s wipe only, before the ones for all new drives', async () => {
    const account = await sut.account();
    const { jti } = await sut.token(account.id, { customer: 'Northwind Schools', lot: 'LOT-DEFAULT' });
    await boot(jti, 'CW-STATION-1');
    await sut.post('/internal/assets/job_details', { jti, record_id: 'CW-STATION-1', lot_reference: 'LOT-ALL' });
    const bay = await sut.post('/internal/assets/job_details', { jti, record_id: 'CW-STATION-1', drive_serial: 'BAY2-SERIAL', asset_tag: 'AT-BAY-2' });
    // The answer is what that drive's result will carry: its own tag, the lot for all new drives.
    expect(bay).toMatchObject({ status: 200, json: { customer: 'Northwind Schools', lot_reference: 'LOT-ALL', asset_tag: 'AT-BAY-2' } });

    const inBay = await submitWipe(sut, jti, 'job-bay-2', { record_id: 'CW-STATION-1', drive_serial: 'BAY2-SERIAL' });
    const other = await submitWipe(sut, jti, 'job-bay-3', { record_id: 'CW-STATION-1', drive_serial: 'BAY3-SERIAL' });
    const detailsOf = (id: string) => sut.row('SELECT customer, lot_reference, asset_tag FROM wipe_results WHERE public_id = @id', { id });
    expect(await detailsOf(inBay.wipe_result_id)).toEqual({ customer: 'Northwind Schools', lot_reference: 'LOT-ALL', asset_tag: 'AT-BAY-2' });
    expect(await detailsOf(other.wipe_result_id)).toEqual({ customer: 'Northwind Schools', lot_reference: 'LOT-ALL', asset_tag: null });
  });

  it('a bay’s details are checked as the others: a refused one stores nothing for the drive', async () => {
    const account = await sut.account();
    const { jti } = await sut.token(account.id);
    await boot(jti, 'CW-STATION-2');
    const refused = await sut.post('/internal/assets/job_details', { jti, record_id: 'CW-STATION-2', drive_serial: 'S-1', asset_tag: 'AT\n1' });
    expect(refused.status).toBe(422);
    expect(Number((await sut.row<{ n: number }>('SELECT COUNT(*) AS n FROM drive_job_details', {})).n)).toBe(0);
  });

  it('clearing a field at the kiosk restores the token’s default', async () => {
    const account = await sut.account();
    const { jti } = await sut.token(account.id, { customer: 'Northwind Schools', lot: 'LOT-DEFAULT' });
    await boot(jti, 'CW-1');
    await sut.post('/internal/assets/job_details', { jti, record_id: 'CW-1', customer: 'Contoso', lot_reference: 'LOT-9' });
    const cleared = await sut.post('/internal/assets/job_details', { jti, record_id: 'CW-1', customer: '', lot_reference: '' });
    expect(cleared.json).toMatchObject({ customer: 'Northwind Schools', lot_reference: 'LOT-DEFAULT', asset_tag: null });
  });

  it.each([
    ['a control character (a scanner’s Tab)', { lot_reference: 'LOT-1\tX' }, 'Lot holds a control character'],
    ['a line break in the asset tag', { asset_tag: 'AT-1\n' }, 'Asset tag holds a control character'],
    ['a customer of 201 characters', { customer: 'c'.repeat(201) }, 'Customer is too long: at most 200 characters'],
    ['an unknown field', { lot: 'LOT-1' }, 'invalid job details'],
  ])('refuses %s with a 422 in plain words and stores nothing', async (_what, details, message) => {
    const account = await sut.account();
    const { jti } = await sut.token(account.id, { customer: 'Northwind Schools', lot: 'LOT-DEFAULT' });
    const assetId = await boot(jti, 'CW-1');
    // A valid customer beside the bad value: not stored either.
    const refused = await sut.post('/internal/assets/job_details', { jti, record_id: 'CW-1', customer: 'Contoso', ...details });
    expect(refused.status).toBe(422);
    expect(refused.json.error).toContain(message);
    expect(await sut.row('SELECT customer, lot_reference, job_asset_tag FROM assets WHERE public_id = @id', { id: assetId })).toEqual({
      customer: 'Northwind Schools',
      lot_reference: 'LOT-DEFAULT',
      job_asset_tag: null,
    });
  });

  it('with free entry off, takes only the account’s customers and lots, and offers them as lists', async () => {
    const account = await sut.account();
    const { jti } = await sut.token(account.id, { customer: 'Northwind Schools', lot: 'LOT-A' });
    await sut.token(account.id, { customer: 'Contoso', lot: 'LOT-B' });
    const assetId = await boot(jti, 'CW-1');
    expect((await sut.post('/internal/job_choices', { jti })).json).toEqual({ free_entry: true, customers: ['Contoso', 'Northwind Schools'], lots: ['LOT-A', 'LOT-B'] });

    await setAccountFreeEntry(sut.db, account.id, false);
    expect((await sut.post('/internal/job_choices', { jti })).json).toMatchObject({ free_entry: false });
    const refused = await sut.post('/internal/assets/job_details', { jti, record_id: 'CW-1', customer: 'Contoso', lot_reference: 'LOT-NOPE' });
    expect(refused.status).toBe(422);
    expect(refused.json.error).toBe('Lot "LOT-NOPE" is not one of this account\'s; pick one from the list, or ask an admin to allow free entry.');
    expect(await sut.row('SELECT customer, lot_reference FROM assets WHERE public_id = @id', { id: assetId })).toEqual({ customer: 'Northwind Schools', lot_reference: 'LOT-A' });

    const listed = await sut.post('/internal/assets/job_details', { jti, record_id: 'CW-1', customer: 'Contoso', lot_reference: 'LOT-B', asset_tag: 'ANY-TAG' });
    expect(listed).toMatchObject({ status: 200, json: { customer: 'Contoso', lot_reference: 'LOT-B', asset_tag: 'ANY-TAG' } });
  });

  it('free entry is an account setting: admins switch it in the web app, others read it', async () => {
    const account = await sut.account();
    const { jti } = await sut.token(account.id, { customer: 'Northwind Schools', lot: 'LOT-A' });
    await addUser(sut, account.id, 'admin', 'admin@demo.test');
    await addUser(sut, account.id, 'technician', 'tech@demo.test');
    const admin = await signIn(sut, 'admin@demo.test');
    const tech = await signIn(sut, 'tech@demo.test');
    expect((await tech.get('/app/api/job-details')).json).toEqual({ free_entry: true, customers: ['Northwind Schools'], lots: ['LOT-A'] });
    expect((await tech.send('PUT', '/app/api/job-details', { free_entry: false })).status).toBe(403);
    expect((await admin.send('PUT', '/app/api/job-details', { free_entry: 'no' })).status).toBe(400);
    expect((await admin.send('PUT', '/app/api/job-details', { free_entry: false })).json).toMatchObject({ free_entry: false });
    expect((await sut.post('/internal/job_choices', { jti })).json).toMatchObject({ free_entry: false });
  });

  it('answers 404 for a record the account never reported, and another account’s token cannot reach it', async () => {
    const account = await sut.account();
    const { jti } = await sut.token(account.id);
    await boot(jti, 'CW-1');
    expect((await sut.post('/internal/assets/job_details', { jti, record_id: 'CW-404', lot_reference: 'L' })).status).toBe(404);
    const other = await sut.token((await sut.account('Other')).id);
    expect((await sut.post('/internal/assets/job_details', { jti: other.jti, record_id: 'CW-1', lot_reference: 'L' })).status).toBe(404);
  });
});
