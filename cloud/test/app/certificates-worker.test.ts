import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claimJob, finishJob } from '../../src/adapters/db/jobs.js';
import { enqueueJob } from '../../src/adapters/db/wipe-results.js';
import { verifyContent, type CertificateContent } from '../../src/domain/certificates/certificate-content.js';
import { readEmbeddedCertificate } from '../../src/domain/certificates/embedded-certificate.js';
import { checkPdfSignature } from '../../src/domain/certificates/pdf-signature.js';
import { certificateFingerprint, generateSelfSignedPdfSigner } from '../../src/domain/certificates/pdf-signing-certificate.js';
import { startCertificateWorker } from '../../src/jobs/certificate-worker.js';
import type { GeneratedCertificate } from '../../src/jobs/generate-certificate.js';
import { waitFor } from '../certificates/processes.js';
import { fingerprint } from '../helpers.js';
import { certificateOf, PUBLIC_BASE_URL, startCertificateCloud, submitWipe, type CertificateCloud } from '../certificates/pipeline.js';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** pdftotext of a PDF's bytes; the tools are required (apt-get install qpdf poppler-utils). */
function pdfText(dir: string, name: string, bytes: Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  execFileSync('qpdf', ['--check', path], { stdio: 'pipe' });
  return execFileSync('pdftotext', ['-enc', 'UTF-8', path, '-'], { encoding: 'utf8' });
}

describe('certificate worker: generation, retries, leases', () => {
  let sut: CertificateCloud;
  let account: Awaited<ReturnType<CertificateCloud['account']>>;
  let jti: string;

  beforeEach(async () => {
    sut = await startCertificateCloud();
    account = await sut.account('Acme Refurb');
    jti = (await sut.token(account.id, { userEmail: 'ana@acme.test' })).jti;
  });
  afterEach(() => sut.close());

  it('renders both PDFs from wipe result, account, matched machine and operator, then marks complete', async () => {
    const asset = await sut.post('/internal/assets', {
      jti,
      record_id: 'CW-20261122-100000',
      engine_version: '1.4.2',
      fingerprint: fingerprint(undefined, 'PF1ABCDE', {
        storage: [{ model: 'SAMSUNG MZVLB512HAJQ', serial: 'S4DYNX0M123456', size_bytes: 512_110_190_592, media_type: 'SSD', smart: { power_on_hours: 8123 } }],
      }),
    });
    expect(asset.status).toBe(201);
    await sut.post('/internal/assets/notes', { jti, record_id: 'CW-20261122-100000', notes: 'Cracked bezel, bay screws replaced' });
    const wipe = await submitWipe(sut, jti, 'job-1-0');
    const events: GeneratedCertificate[] = [];

    expect(await sut.drain({ onCertificateGenerated: async (_tx, c) => void events.push(c) })).toBe(1);

    const cert = await sut.row<Record<string, string>>('SELECT * FROM certificates');
    expect(cert).toMatchObject({ status: 'complete', certificate_number: 'CW-000001' });
    expect((await sut.row<{ certificate_status: string }>('SELECT certificate_status FROM wipe_results')).certificate_status).toBe('complete');
    expect((await sut.row<{ status: string }>('SELECT status FROM jobs')).status).toBe('done');
    expect(events).toEqual([expect.objectContaining({ id: cert.public_id, certificate_number: 'CW-000001', wipe_result_id: wipe.wipe_result_id })]);

    const content = JSON.parse(cert.content!) as CertificateContent;
    // The signature names the key that made it: `<key id>.<base64 Ed25519 signature>`.
    const [keyId, signature] = cert.signature!.split('.');
    expect(keyId).toBe(sut.keys.keyId);
    expect(verifyContent(sut.keys.publicKey, content, signature!)).toBe(true);
    expect(content).toMatchObject({
      account_name: 'Acme Refurb',
      operator: 'ana@acme.test',
      drive: { serial: 'S4DYNX0M123456', manufacturer: 'Samsung', media_type: 'SSD', capacity_gb: 512 },
      tool: { name: 'Erasure Engine', version: '1.4.2', components: 'nvme-cli 2.8' },
      source_machine: { serial: 'PF1ABCDE', asset_id: asset.json.asset_id },
      wipe: { nist_category: 'Purge', passes_completed: null },
      verify_url: `${PUBLIC_BASE_URL}/certificates/${cert.public_id}/verify`,
    });

    const certificatePdf = (await sut.store.get(cert.certificate_key!))!;
    const reportPdf = (await sut.store.get(cert.report_key!))!;
    expect(cert.certificate_key).toMatch(/\/CW-000001\.pdf$/);
    expect(cert.report_key).toMatch(/\/CW-000001-report\.pdf$/);
    expect(sha256(certificatePdf)).toBe(cert.certificate_sha256);
    expect(sha256(reportPdf)).toBe(cert.report_sha256);
    const certText = pdfText(sut.dataDir, 'c.pdf', certificatePdf);
    const reportText = pdfText(sut.dataDir, 'r.pdf', reportPdf);
    for (const text of [certText, reportText]) {
      expect(text).toContain('CW-000001');
      expect(text).toContain('S4DYNX0M123456');
      expect(text).toContain('Acme Refurb');
    }
    expect(reportText).toContain('Cracked bezel');
    expect(reportText).toMatch(/Power on hours\s+8,123/); // SMART of the erased drive, from the fingerprint
  });

  it('a drive in no reported machine is certified without a source machine', async () => {
    await submitWipe(sut, jti, 'job-bay-0', { drive_serial: 'WD-LOOSE-1', drive_model: 'WDC WD10EZEX-08WN4A0' });
    await sut.drain();
    const content = JSON.parse((await sut.row<{ content: string }>('SELECT content FROM certificates')).content) as CertificateContent;
    expect(content.source_machine).toBeNull();
    expect(content.drive).toMatchObject({ manufacturer: 'Western Digital', serial: 'WD-LOOSE-1' });
    expect(content.tool.version).toBeNull();
  });

  it('a failing store retries with growing backoff stored as run_at, then fails after 5 attempts', async () => {
    const wipe = await submitWipe(sut, jti, 'job-x-0');
    const broken = { ...sut.store, put: async () => Promise.reject(new Error('disk full')) };
    const delays: number[] = [];
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect(await sut.drain({ store: broken })).toBe(1);
      const job = await sut.row<{ status: string; attempts: number; run_at: string; last_error: string }>('SELECT * FROM jobs');
      expect(job.attempts).toBe(attempt);
      expect(job.last_error).toBe(`object store ${sut.store.where} did not take the PDFs: disk full`);
      if (attempt < 5) {
        expect(job.status).toBe('pending');
        // On its way while attempts are left: neither failed nor not yet started.
        expect((await certificateOf(sut, wipe.wipe_result_id)).status).toBe('generating');
        const delay = Date.parse(job.run_at) - sut.clock.now().getTime();
        delays.push(delay);
        expect(await sut.drain({ store: broken })).toBe(0); // not due yet: nothing runs
        sut.clock.advance(delay);
      } else {
        expect(job.status).toBe('failed');
      }
    }
    expect(delays.every((d, i) => i === 0 || d > delays[i - 1]!)).toBe(true);
    expect(delays[0]).toBeGreaterThanOrEqual(2000);
    expect((await certificateOf(sut, wipe.wipe_result_id)).status).toBe('failed');
    expect((await sut.row<{ certificate_status: string }>('SELECT certificate_status FROM wipe_results')).certificate_status).toBe('failed');
    expect(await sut.drain()).toBe(0); // a failed job stays failed
  });

  it("a crashed worker's claim is taken over once its lease runs out, and the stale worker cannot finish", async () => {
    const wipe = await submitWipe(sut, jti, 'job-crash-0');
    const now = sut.clock.now().toISOString();
    const crashed = (await claimJob(sut.db, 'certificate', now, new Date(sut.clock.now().getTime() + 60_000).toISOString()))!;
    expect(crashed.attempts).toBe(1);
    expect(await sut.drain()).toBe(0); // leased: nobody else may take it
    sut.clock.advance(60_001);
    expect(await sut.drain()).toBe(1);
    expect((await certificateOf(sut, wipe.wipe_result_id)).status).toBe('complete');
    expect(await sut.row<{ attempts: number; status: string }>('SELECT attempts, status FROM jobs')).toEqual({ attempts: 2, status: 'done' });
    expect(await finishJob(sut.db, crashed, sut.clock.now().toISOString())).toBe(false);
  });

  it('concurrent claims each take a different due job, and together take every one', async () => {
    const now = sut.clock.now().toISOString();
    const lease = new Date(sut.clock.now().getTime() + 60_000).toISOString();
    for (let subject = 1; subject <= 12; subject++) await enqueueJob(sut.db, 'claim-test', subject, now);
    // On PostgreSQL these run on separate connections at once: a claim must pass over the job
    // another claim has locked rather than wait for it and come back empty-handed.
    const claims = await Promise.all(Array.from({ length: 12 }, () => claimJob(sut.db, 'claim-test', now, lease)));
    expect(claims.map((c) => c?.subject_id).sort((a, b) => a! - b!)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect(claims.every((c) => c!.attempts === 1)).toBe(true);
    expect(await claimJob(sut.db, 'claim-test', now, lease)).toBeUndefined();
  });

  it('the worker loop picks up new results when woken and stops gracefully', async () => {
    const worker = startCertificateWorker({ ...sut.jobDeps, pollMs: 60_000, concurrency: 2 });
    try {
      const wipe = await submitWipe(sut, jti, 'job-live-0');
      worker.wake(); // the idle poll is a minute: only the wake can explain a prompt certificate
      await waitFor(async () => (await certificateOf(sut, wipe.wipe_result_id)).status === 'complete', 10_000, 10, 'certificate complete');
    } finally {
      await worker.stop();
    }
  });

  it('re-running a job whose content is already signed renders byte-identical PDFs under the same keys', async () => {
    await submitWipe(sut, jti, 'job-same-0');
    await sut.drain();
    const first = await sut.row<Record<string, string>>('SELECT * FROM certificates');
    // As if the worker had crashed after its puts but before recording completion.
    await sut.db.run(`UPDATE jobs SET status = 'pending', attempts = 1`);
    await sut.db.run(`UPDATE certificates SET status = 'generating', certificate_sha256 = NULL, report_sha256 = NULL`);
    sut.clock.advance(3_600_000);
    await sut.drain();
    const second = await sut.row<Record<string, string>>('SELECT * FROM certificates');
    expect(second).toMatchObject({
      status: 'complete',
      signed_at: first.signed_at,
      signature: first.signature,
      certificate_key: first.certificate_key,
      certificate_sha256: first.certificate_sha256,
      report_sha256: first.report_sha256,
    });
  });

  it('a certificate signed on an earlier attempt is signed again when the PDF signer changed before it was rendered', async () => {
    const wipe = await submitWipe(sut, jti, 'job-resign-0');
    // The first attempt signs the record (naming the PDF signer of then), then its store fails.
    const broken = { ...sut.store, put: async () => Promise.reject(new Error('disk full')) };
    expect(await sut.drain({ store: broken })).toBe(1);
    const before = await certificateOf(sut, wipe.wipe_result_id);
    const named = (JSON.parse((before as unknown as { content: string }).content) as CertificateContent).pdf_signer_sha256;
    expect(named).toMatch(/^[0-9a-f]{64}$/);

    // A new CERTIFICATE_PDF_CERTIFICATE (or a rotation) before the retry renders the PDFs.
    const replacement = generateSelfSignedPdfSigner({ commonName: 'Erasure Cloud certificate signing', now: sut.clock.now() });
    sut.clock.advance(3_600_000);
    expect(await sut.drain({ pdfSigning: async () => replacement })).toBe(1);
    const cert = await certificateOf(sut, wipe.wipe_result_id);
    expect(cert.status).toBe('complete');
    const content = JSON.parse((cert as unknown as { content: string }).content) as CertificateContent;
    expect(content.pdf_signer_sha256).toBe(certificateFingerprint(replacement.certificates[0]!));
    const pdf = (await sut.store.get(cert.certificate_key!))!;
    const signer = checkPdfSignature(pdf);
    expect(signer.ok && certificateFingerprint(signer.signerCertificate)).toBe(content.pdf_signer_sha256);
    const embedded = (await readEmbeddedCertificate(pdf))!;
    expect(new TextDecoder().decode(embedded.json)).toBe((cert as unknown as { content: string }).content);
  });
});
