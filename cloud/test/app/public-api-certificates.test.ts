import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { conforms, LotPage, PublicCertificate, PublicLotDetail } from '@erasure/shared';
import { mintApiKey } from '../../src/adapters/db/api-key-issuance.js';
import { insertLotDocument } from '../../src/adapters/db/lot-documents.js';
import { certificateOf, PUBLIC_BASE_URL, startCertificateCloud, submitWipe, type CertificateCloud } from '../certificates/pipeline.js';
import { startCloud } from '../helpers.js';
import { addUser, signIn } from '../web-helpers.js';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * `GET /api/v1/certificates/{number}` with its two PDFs, and `GET /api/v1/lots` and
 * `/api/v1/lots/{id}` (issue 31 item 5): the same API key, scope and rate limit as the other
 * public routes; the PDFs are the stored bytes, through the web app's presigned links.
 */
describe('public API: certificates and lots', { timeout: 120_000 }, () => {
  let sut: CertificateCloud;
  let account: Awaited<ReturnType<CertificateCloud['account']>>;
  let other: Awaited<ReturnType<CertificateCloud['account']>>;
  let key: string;
  let otherKey: string;
  let jti: string;
  let dir: string;

  beforeEach(async () => {
    sut = await startCertificateCloud();
    account = await sut.account('Acme Refurb');
    other = await sut.account('Other Recycler');
    await addUser(sut, account.id, 'technician', 'tech@acme.test');
    await addUser(sut, other.id, 'technician', 'eve@other.test');
    key = (await mintApiKey(sut, { accountId: account.id, name: 'erp', createdByUserId: null })).apiKey;
    otherKey = (await mintApiKey(sut, { accountId: other.id, name: 'erp', createdByUserId: null })).apiKey;
    jti = (await sut.token(account.id, { customer: 'Contoso', lot: 'LOT-7' })).jti;
    dir = mkdtempSync(join(tmpdir(), 'public-api-certs-'));
  }, 120_000);
  afterEach(async () => {
    await sut.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = async (url: string, apiKey: string | null = key) => {
    const res = await sut.app.inject({ method: 'GET', url, headers: apiKey === null ? {} : { authorization: `Bearer ${apiKey}` } });
    return { status: res.statusCode, text: res.body, json: res.body ? JSON.parse(res.body) : undefined, headers: res.headers };
  };
  /** Follows a presigned Location on this app, without the API key (the link is the credential). */
  const fetchFile = (location: string) => sut.app.inject({ method: 'GET', url: location.replace(PUBLIC_BASE_URL, '') });
  const pdfsig = (bytes: Uint8Array, name: string) => {
    const file = join(dir, name);
    writeFileSync(file, bytes);
    const r = spawnSync('pdfsig', [file], { encoding: 'utf8' });
    if (r.error) throw new Error('pdfsig is required: apt-get install poppler-utils');
    return `${r.stdout}${r.stderr}`;
  };
  /** A lot certificate made as the web app makes it: "Download certificates → One merged PDF". */
  const makeLot = async (ids: string[], email = 'tech@acme.test') => {
    const res = await sut.app.inject({ method: 'GET', url: `/app/api/wipes/certificates?format=pdf&ids=${ids.join(',')}`, headers: { cookie: (await signIn(sut, email)).cookie } });
    expect(res.statusCode).toBe(200);
    return res.rawPayload;
  };

  it('a certificate by its number: its record in the contract, and both PDFs as stored, signed (pdfsig)', async () => {
    const wipe = (await submitWipe(sut, jti, 'job-1-0')).wipe_result_id;
    const cert = await certificateOf(sut, wipe);

    // Before its PDFs exist: the record says pending, no links, and the PDF routes say why.
    const pending = await get(`/api/v1/certificates/${cert.certificate_number}`);
    expect(pending.status).toBe(200);
    expect(conforms(PublicCertificate, pending.json)).toBe(true);
    expect(pending.json).toMatchObject({ number: 'CW-000001', id: cert.public_id, wipe_id: wipe, status: 'pending', issued_at: null, certificate_pdf_url: null, report_pdf_url: null });
    expect(await get(`/api/v1/certificates/${cert.certificate_number}/pdf`)).toMatchObject({
      status: 409,
      json: { error: 'Certificate not issued yet: its PDFs are made once its status is complete' },
    });

    await sut.drain();
    const stored = await certificateOf(sut, wipe);
    const row = await sut.row<{ generated_at: string; certificate_sha256: string; report_sha256: string; created_at: string; updated_at: string }>(
      'SELECT generated_at, certificate_sha256, report_sha256, created_at, updated_at FROM certificates WHERE id = @id',
      { id: stored.id },
    );
    const res = await get('/api/v1/certificates/CW-000001');
    expect(res.status).toBe(200);
    expect(conforms(PublicCertificate, res.json)).toBe(true);
    expect(res.json).toEqual({
      number: 'CW-000001',
      id: cert.public_id,
      wipe_id: wipe,
      account_id: account.publicId,
      status: 'complete',
      issued_at: row.generated_at,
      verify_url: `${PUBLIC_BASE_URL}/certificates/${cert.public_id}/verify`,
      certificate_pdf_url: `${PUBLIC_BASE_URL}/api/v1/certificates/CW-000001/pdf`,
      report_pdf_url: `${PUBLIC_BASE_URL}/api/v1/certificates/CW-000001/report`,
      certificate_sha256: row.certificate_sha256,
      report_sha256: row.report_sha256,
      created_at: row.created_at,
      updated_at: row.updated_at,
    });
    expect(res.headers.etag).toBeDefined();

    const served: Buffer[] = [];
    for (const [link, storedKey, name] of [[res.json.certificate_pdf_url, stored.certificate_key!, 'certificate.pdf'], [res.json.report_pdf_url, stored.report_key!, 'report.pdf']] as const) {
      const redirect = await get(String(link).replace(PUBLIC_BASE_URL, ''));
      expect(redirect.status).toBe(302);
      expect(redirect.headers['cache-control']).toBe('no-store');
      expect(String(redirect.headers.location)).toMatch(new RegExp(`^${PUBLIC_BASE_URL}/files/certificates/acct_\\w+/${cert.public_id}/CW-000001(-report)?\\.pdf\\?expires=\\d+&signature=[0-9a-f]{64}$`));
      const file = await fetchFile(String(redirect.headers.location));
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toBe('application/pdf');
      // The stored bytes, exactly: the object in the store and the hash on record.
      expect(sha256(file.rawPayload)).toBe(sha256((await sut.store.get(storedKey))!));
      expect(pdfsig(file.rawPayload, name)).toMatch(/Signature Validation: Signature is Valid\./);
      served.push(file.rawPayload);
    }
    expect(sha256(served[0]!)).toBe(row.certificate_sha256);
    expect(sha256(served[1]!)).toBe(row.report_sha256);
  });

  it('another account\u2019s certificate answers as one that does not exist: 404 Certificate not found, PDFs too', async () => {
    await submitWipe(sut, jti, 'job-mine-0');
    const theirJti = (await sut.token(other.id)).jti;
    for (const job of ['job-theirs-0', 'job-theirs-1']) await submitWipe(sut, theirJti, job);
    await sut.drain();
    // Numbers are per account: CW-000002 exists, but only in the other account.
    const unknown = await get('/api/v1/certificates/CW-999999');
    expect(unknown).toMatchObject({ status: 404, json: { error: 'Certificate not found' } });
    for (const path of ['', '/pdf', '/report']) {
      const theirs = await get(`/api/v1/certificates/CW-000002${path}`);
      expect([theirs.status, theirs.text], path).toEqual([unknown.status, unknown.text]);
    }
    // The same number names each account's own certificate.
    const mine = (await get('/api/v1/certificates/CW-000001')).json;
    const theirs = (await get('/api/v1/certificates/CW-000001', otherKey)).json;
    expect(mine.account_id).toBe(account.publicId);
    expect(theirs.account_id).toBe(other.publicId);
    expect(mine.id).not.toBe(theirs.id);
  });

  it('lists the account\u2019s lot certificates in the contract, and one lot with its drives and the served PDF\u2019s hash', async () => {
    const wipes: string[] = [];
    for (const [i, serial] of ['SER-A', 'SER-B'].entries()) wipes.push((await submitWipe(sut, jti, `job-lot-${i}`, { drive_serial: serial })).wipe_result_id);
    wipes.push((await submitWipe(sut, jti, 'job-lot-9', { drive_serial: 'SER-FAILED', wipe_status: 'failed' })).wipe_result_id);
    const theirWipe = (await submitWipe(sut, (await sut.token(other.id)).jti, 'job-theirs-0')).wipe_result_id;
    await sut.drain();
    const first = await makeLot([wipes[0]!]);
    sut.clock.advance(60_000);
    const cursor = sut.clock.now().toISOString();
    sut.clock.advance(1000);
    const second = await makeLot([wipes[1]!, wipes[2]!, wipes[0]!]);
    await makeLot([theirWipe], 'eve@other.test');

    const list = await get('/api/v1/lots');
    expect(list.status).toBe(200);
    expect(conforms(LotPage, list.json)).toBe(true);
    expect(list.json).toMatchObject({ page: 1, pages: 1, count: 2 });
    const [newest, oldest] = list.json.lots;
    expect(oldest.document_sha256).toBe(sha256(first));
    expect(newest).toMatchObject({
      account_id: account.publicId,
      document_sha256: sha256(second),
      verify_url: `${PUBLIC_BASE_URL}/lots/${newest.id}/verify`,
      summary: { customers: ['Contoso'], lots: ['LOT-7'], drives: 3, certified: 2, by_status: { Pass: 2, Fail: 1 } },
    });

    // Since the cursor: the one made after it.
    const since = await get(`/api/v1/lots?since=${encodeURIComponent(cursor)}&account_id=${account.publicId}`);
    expect(since.json).toMatchObject({ page: 1, pages: 1, count: 1 });
    expect(since.json.lots.map((l: { id: string }) => l.id)).toEqual([newest.id]);

    const one = await get(`/api/v1/lots/${newest.id}`);
    expect(one.status).toBe(200);
    expect(conforms(PublicLotDetail, one.json)).toBe(true);
    const numbers = await Promise.all(wipes.slice(0, 2).map(async (id) => (await certificateOf(sut, id)).certificate_number));
    expect(one.json.drives).toEqual([
      { certificate_number: numbers[1], certificate_id: (await certificateOf(sut, wipes[1]!)).public_id, certificate_url: `${PUBLIC_BASE_URL}/api/v1/certificates/${numbers[1]}`, drive_serial: 'SER-B', drive_model: 'SAMSUNG MZVLB512HAJQ', status: 'Pass' },
      { certificate_number: null, certificate_id: null, certificate_url: null, drive_serial: 'SER-FAILED', drive_model: 'SAMSUNG MZVLB512HAJQ', status: 'Fail' },
      { certificate_number: numbers[0], certificate_id: (await certificateOf(sut, wipes[0]!)).public_id, certificate_url: `${PUBLIC_BASE_URL}/api/v1/certificates/${numbers[0]}`, drive_serial: 'SER-A', drive_model: 'SAMSUNG MZVLB512HAJQ', status: 'Pass' },
    ]);
    const { drives: _drives, ...record } = one.json;
    expect(record).toEqual(newest);
    // Each drive's link is the certificate's own record.
    expect((await get(one.json.drives[0].certificate_url.replace(PUBLIC_BASE_URL, ''))).json).toMatchObject({ number: numbers[1], wipe_id: wipes[1] });

    // Another account's lot, an unknown one and a malformed id answer alike.
    const theirs = (await get('/api/v1/lots', otherKey)).json.lots[0].id as string;
    const missing = await get('/api/v1/lots/lotdoc_00');
    expect(missing).toMatchObject({ status: 404, json: { error: 'Lot not found' } });
    for (const id of [theirs, 'not-a-lot']) expect((await get(`/api/v1/lots/${id}`)).text).toBe(missing.text);
  });

  it('a lot certificate itself: 302 to the file kept when it was made, those bytes, signed (pdfsig)', async () => {
    const wipes: string[] = [];
    for (const [i, serial] of ['SER-A', 'SER-B'].entries()) wipes.push((await submitWipe(sut, jti, `job-lotpdf-${i}`, { drive_serial: serial })).wipe_result_id);
    await sut.drain();
    const made = await makeLot(wipes);
    const lot = (await get('/api/v1/lots')).json.lots[0] as { id: string; document_sha256: string };
    expect(sha256(made)).toBe(lot.document_sha256);

    const redirect = await get(`/api/v1/lots/${lot.id}/pdf`);
    expect(redirect.status).toBe(302);
    expect(redirect.headers['cache-control']).toBe('no-store');
    expect(String(redirect.headers.location)).toMatch(new RegExp(`^${PUBLIC_BASE_URL}/files/lot-documents/${account.publicId}/${lot.id}\\.pdf\\?expires=\\d+&signature=[0-9a-f]{64}$`));
    const file = await fetchFile(String(redirect.headers.location));
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    // The document served when the lot was made, exactly: the hash on record.
    expect(sha256(file.rawPayload)).toBe(lot.document_sha256);
    expect(pdfsig(file.rawPayload, 'lot.pdf')).toMatch(/Signature Validation: Signature is Valid\./);

    // Another account's lot, an unknown one and a malformed id answer alike, as the lot itself.
    const theirWipe = (await submitWipe(sut, (await sut.token(other.id)).jti, 'job-theirs-pdf')).wipe_result_id;
    await sut.drain();
    await makeLot([theirWipe], 'eve@other.test');
    const theirs = (await get('/api/v1/lots', otherKey)).json.lots[0].id as string;
    const missing = await get('/api/v1/lots/lotdoc_00/pdf');
    expect(missing).toMatchObject({ status: 404, json: { error: 'Lot not found' } });
    for (const id of [theirs, 'not-a-lot']) expect((await get(`/api/v1/lots/${id}/pdf`)).text).toBe(missing.text);
    expect((await get(`/api/v1/lots/${theirs}/pdf`, otherKey)).status).toBe(302);
  });

  it('a lot made before the cloud kept lot PDFs: 409 saying to make it again, not a link to nothing', async () => {
    await sut.db.run(
      `INSERT INTO lot_documents (public_id, account_id, summary, drives, document_sha256, created_at)
       VALUES ('lotdoc_01d', @account, '{}', '[]', @sha, @now)`,
      { account: account.id, sha: '0'.repeat(64), now: sut.clock.now().toISOString() },
    );
    expect(await get('/api/v1/lots/lotdoc_01d/pdf')).toMatchObject({
      status: 409,
      json: { error: 'This lot certificate was made before the cloud kept lot PDFs: make it again from the wipes grid' },
    });
  });

  it('pages the lots as the assets: every lot once, newest first, 100 per page, and 422 for a bad since or page', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 103; i++) {
      sut.clock.advance(1000);
      const id = `lotdoc_${i.toString(16).padStart(4, '0')}`;
      ids.push(id);
      // Seeded through the store's own adapter: signing 103 lot PDFs is the lot tests' job, not paging's.
      await insertLotDocument(sut.db, {
        public_id: id,
        account_id: account.id,
        summary: JSON.stringify({ customers: [], lots: [], from: null, to: null, drives: 1, certified: 1, by_status: { Pass: 1 }, by_method: { x: 1 } }),
        drives: '[]',
        document_sha256: sha256(Buffer.from(id)),
        created_at: sut.clock.now().toISOString(),
      });
    }
    const page1 = await get('/api/v1/lots');
    const page2 = await get('/api/v1/lots?page=2');
    expect(page1.json).toMatchObject({ page: 1, pages: 2, count: 103 });
    expect(page2.json).toMatchObject({ page: 2, pages: 2, count: 103 });
    expect(page1.json.lots).toHaveLength(100);
    expect([...page1.json.lots, ...page2.json.lots].map((l: { id: string }) => l.id)).toEqual([...ids].reverse());
    // A stored row without the newer validation field still answers in the contract.
    expect(conforms(LotPage, page2.json)).toBe(true);
    expect(page2.json.lots[0].summary.validation).toEqual([]);
    // Unchanged page, same ETag: 304.
    const again = await sut.app.inject({ method: 'GET', url: '/api/v1/lots?page=2', headers: { authorization: `Bearer ${key}`, 'if-none-match': String(page2.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect(await get('/api/v1/lots?since=yesterday')).toMatchObject({ status: 422, json: { error: 'since must be an ISO 8601 timestamp, for example 2026-11-22T13:07:12Z' } });
    expect(await get('/api/v1/lots?page=0')).toMatchObject({ status: 422, json: { error: 'page must be a positive integer' } });
    expect(await get('/api/v1/lots?account_id=acct_someone_else')).toMatchObject({ status: 404, json: { error: 'Account not found' } });
  });

  it('needs a live API key (401, empty body) and counts against its rate limit, as the other public routes', async () => {
    for (const url of ['/api/v1/certificates/CW-000001', '/api/v1/certificates/CW-000001/pdf', '/api/v1/certificates/CW-000001/report', '/api/v1/lots', '/api/v1/lots/lotdoc_00', '/api/v1/lots/lotdoc_00/pdf']) {
      const res = await get(url, null);
      expect([res.status, res.text], url).toEqual([401, '']);
    }
    const limited = await startCloud({ deps: { publicApiRateLimit: { limit: 2, windowMs: 60_000 } } });
    try {
      const acct = await limited.account('Limited');
      const limitedKey = (await mintApiKey(limited, { accountId: acct.id, name: 'erp', createdByUserId: null })).apiKey;
      const call = (url: string) => limited.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${limitedKey}` } });
      expect((await call('/api/v1/lots')).statusCode).toBe(200);
      expect((await call('/api/v1/certificates/CW-000001')).statusCode).toBe(404);
      const third = await call('/api/v1/certificates/CW-000001/pdf');
      expect(third.statusCode).toBe(429);
      expect(JSON.parse(third.body)).toEqual({ error: 'rate limit exceeded' });
    } finally {
      await limited.close();
    }
  });

  it('answers as the OpenAPI document says: the complete certificate, the 302 to its PDF, the lots', async () => {
    const wipe = (await submitWipe(sut, jti, 'job-doc-0')).wipe_result_id;
    await sut.drain();
    await makeLot([wipe]);
    const document = JSON.parse((await sut.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).body);
    const lotId = (await get('/api/v1/lots')).json.lots[0].id as string;
    const calls = [
      { path: '/api/v1/certificates/{number}', url: '/api/v1/certificates/CW-000001', status: 200 },
      { path: '/api/v1/certificates/{number}/pdf', url: '/api/v1/certificates/CW-000001/pdf', status: 302 },
      { path: '/api/v1/certificates/{number}/report', url: '/api/v1/certificates/CW-000001/report', status: 302 },
      { path: '/api/v1/lots', url: '/api/v1/lots', status: 200 },
      { path: '/api/v1/lots/{id}', url: `/api/v1/lots/${lotId}`, status: 200 },
      { path: '/api/v1/lots/{id}/pdf', url: `/api/v1/lots/${lotId}/pdf`, status: 302 },
    ];
    for (const call of calls) {
      const res = await get(call.url);
      expect(res.status, call.url).toBe(call.status);
      const documented = document.paths[call.path].get.responses[String(call.status)];
      expect(documented, `${call.url} ${call.status} is documented`).toBeDefined();
      const schema = documented.content?.['application/json']?.schema as object | undefined;
      if (!schema) {
        expect(res.text, `${call.url}: documented without a body`).toBe('');
        expect(documented.headers?.Location, `${call.url}: its Location is documented`).toBeDefined();
        continue;
      }
      const validate = new Ajv2020({ strict: false, allErrors: true }).compile(schema);
      expect(validate(res.json) ? [] : validate.errors, call.url).toEqual([]);
    }
  });
});
