import { addUser, signIn } from '../web-helpers.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWipeGridReader } from '../../src/adapters/db/wipes-grid.js';
import { CERTIFICATE_SCHEMA } from '../../src/domain/certificates/certificate-content.js';
import { toWipeView } from '../../src/domain/wipes/grid.js';
import { certificateOf, startCertificateCloud, submitWipe, type CertificateCloud } from '../certificates/pipeline.js';
import { fingerprint } from '../helpers.js';

// Issue 23 (2): a customer and lot / job reference set on the device token reach the machine's
// asset row, the wipes grid and the signed certificate content.
describe('customer and lot / job reference of a device token', () => {
  let sut: CertificateCloud;
  beforeEach(async () => {
    sut = await startCertificateCloud();
  });
  afterEach(() => sut.close());

  it('are carried onto the reported machine, the grid row and the signed certificate', async () => {
    const account = await sut.account('Demo Refurbishing');
    const { jti } = await sut.token(account.id, { customer: 'Northwind Schools', lot: 'LOT-2026-11-042' });
    const asset = await sut.post('/internal/assets', { jti, record_id: 'CW-20261122-100000', engine_version: '1.4.2', fingerprint: fingerprint() });
    expect(asset.status).toBe(201);
    expect(await sut.row('SELECT customer, lot_reference FROM assets WHERE public_id = @id', { id: asset.json.asset_id })).toEqual({
      customer: 'Northwind Schools',
      lot_reference: 'LOT-2026-11-042',
    });
    // …and the web app's asset page shows them.
    await addUser(sut, account.id, 'technician', 'tech@demo.test');
    const page = await (await signIn(sut, 'tech@demo.test')).get(`/app/api/assets/${asset.json.asset_id}`);
    expect(page.json).toMatchObject({ customer: 'Northwind Schools', lot_reference: 'LOT-2026-11-042' });

    const wipe = await submitWipe(sut, jti, 'job-lot-0');
    const grid = await (await createWipeGridReader(sut.db)).page(account.id, 100, 0);
    expect(grid.rows.map(toWipeView).map((r) => [r.customer, r.lot_reference])).toEqual([['Northwind Schools', 'LOT-2026-11-042']]);

    await sut.drain();
    const cert = await certificateOf(sut, wipe.wipe_result_id);
    const stored = await sut.row<{ content: string }>('SELECT content FROM certificates WHERE id = @id', { id: cert.id });
    expect(JSON.parse(stored.content)).toMatchObject({
      schema: CERTIFICATE_SCHEMA,
      account_name: 'Demo Refurbishing',
      customer: 'Northwind Schools',
      lot_reference: 'LOT-2026-11-042',
    });
  });

  it('are null everywhere for a token minted without them', async () => {
    const account = await sut.account('Demo Refurbishing');
    const { jti } = await sut.token(account.id);
    const asset = await sut.post('/internal/assets', { jti, record_id: 'CW-20261122-100000', engine_version: '1.4.2', fingerprint: fingerprint() });
    expect(await sut.row('SELECT customer, lot_reference FROM assets WHERE public_id = @id', { id: asset.json.asset_id })).toEqual({ customer: null, lot_reference: null });
    const wipe = await submitWipe(sut, jti, 'job-none-0');
    await sut.drain();
    const stored = await sut.row<{ content: string }>('SELECT content FROM certificates WHERE id = @id', { id: (await certificateOf(sut, wipe.wipe_result_id)).id });
    expect(JSON.parse(stored.content)).toMatchObject({ customer: null, lot_reference: null });
  });
});
