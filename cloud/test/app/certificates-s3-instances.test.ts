import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/adapters/db/accounts.js';
import { createToken } from '../../src/adapters/db/tokens.js';
import { createUser } from '../../src/adapters/db/users.js';
import { loadCertificateKeys, type CertificateKeys } from '../../src/adapters/certificate-keys.js';
import { s3ObjectStore, type S3ObjectStore } from '../../src/adapters/objects/s3-store.js';
import { hashPassword } from '../../src/adapters/passwords.js';
import type { SqlDatabase } from '../../src/adapters/sql/database.js';
import { PostgresDatabase } from '../../src/adapters/sql/postgres.js';
import { verifyPdf } from '../../src/cli/certificates.js';
import { buildCloudApp } from '../../src/http/app.js';
import { drainCertificateJobs } from '../../src/jobs/certificate-worker.js';
import { retryDelayMs } from '../../src/jobs/generate-certificate.js';
import { inProcessRenderer } from '../../src/jobs/renderer.js';
import { testFonts } from '../certificates/fixtures.js';
import { PUBLIC_BASE_URL, wipeBody } from '../certificates/pipeline.js';
import { issueCheckin, SECRET, testClock } from '../helpers.js';
import { freshSigner } from '../support/fresh-signer.js';
import { startS3, type RunningS3 } from '../support/s3rver.js';
import { freshPostgresUrl, TEST_STORE } from '../support/test-store.js';

// Issue 33: cloud instances on hosts of their own share nothing but PostgreSQL and the bucket.
// Two instances with different DATA_DIRs: instance A takes the wipe result and its worker makes
// the certificate; the owner asks instance B, follows the 302 and gets the PDF, byte for byte the
// one in the bucket, which pdfsig and verify-pdf accept. PostgreSQL only: SQLite runs one instance.
describe.runIf(TEST_STORE === 'postgres')('two cloud instances on one PostgreSQL and one bucket', () => {
  let s3: RunningS3;
  let url: string;
  const clock = testClock();
  const open: { app: FastifyInstance; db: SqlDatabase; bucket: S3ObjectStore; dataDir: string }[] = [];

  beforeEach(async () => {
    s3 = await startS3();
    url = await freshPostgresUrl();
  });
  afterEach(async () => {
    for (const { app, db, bucket, dataDir } of open.splice(0)) {
      await app.close();
      await db.close();
      bucket.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
    await s3.stop();
  });

  /** One instance: its own DATA_DIR and connections, the shared database and bucket. */
  const instance = async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'erasure-host-'));
    const db = PostgresDatabase.open(url, { max: 4 });
    const bucket = s3ObjectStore({ ...s3.settings, presign: 'direct' });
    const keys: CertificateKeys = await loadCertificateKeys({ db, dataDir });
    const app = buildCloudApp({
      db,
      clock,
      internalApiSecret: SECRET,
      publicBaseUrl: PUBLIC_BASE_URL,
      certificates: { store: bucket, publicKeys: keys.publicKeys, urlSigningSecret: keys.urlSigningSecret, pdfSigning: () => keys.pdfSigning() },
    });
    await app.ready();
    open.push({ app, db, bucket, dataDir });
    return { app, db, bucket, keys };
  };

  it('a certificate made by instance A is downloaded through instance B, straight from the bucket', async () => {
    const a = await instance();
    const b = await instance();
    const now = clock.now().toISOString();
    const account = await createAccount(a.db, { name: 'Two Hosts Refurb', subscriptionStatus: 'active', now });
    const token = await createToken(a.db, { accountId: account.id, product: 'engine', quotaLimit: null, userEmail: 'tech@example.com', expiresAt: null, customer: null, lotReference: null, now });
    await createUser(a.db, { accountId: account.id, email: 'owner@two.test', passwordHash: await hashPassword('correct horse battery'), role: 'admin', now });

    await issueCheckin(a.db, token.jti, 'job-1-0');
    const payload = JSON.stringify(wipeBody(token.jti, 'job-1-0'));
    const sent = await a.app.inject({ method: 'POST', url: '/internal/wipe_results', payload, headers: { ...freshSigner(SECRET)(payload, Math.floor(clock.now().getTime() / 1000)), 'content-type': 'application/json' } });
    expect(sent.statusCode).toBe(201);
    // Instance A's worker makes the certificate.
    const made = await drainCertificateJobs({
      db: a.db,
      clock,
      store: a.bucket,
      renderer: inProcessRenderer(testFonts()),
      signing: a.keys.signing,
      pdfSigning: a.keys.pdfSigning,
      publicBaseUrl: PUBLIC_BASE_URL,
      leaseMs: 60_000,
      maxAttempts: 5,
      retryDelayMs: (attempt) => retryDelayMs(attempt),
    });
    expect(made).toBe(1);
    const cert = (await a.db.one<{ public_id: string; certificate_key: string }>('SELECT public_id, certificate_key FROM certificates'))!;

    // The owner signs in on instance B and follows its 302.
    const login = await b.app.inject({ method: 'POST', url: '/login', payload: { email: 'owner@two.test', password: 'correct horse battery' } });
    const cookie = String(login.headers['set-cookie']).split(';')[0]!;
    const redirect = await b.app.inject({ method: 'GET', url: `/certificates/${cert.public_id}`, headers: { cookie } });
    expect(redirect.statusCode).toBe(302);
    const location = new URL(String(redirect.headers.location));
    expect(location.origin).toBe(s3.settings.endpoint);
    const pdf = Buffer.from(await (await fetch(location)).arrayBuffer());
    expect(pdf.equals(Buffer.from((await b.bucket.get(cert.certificate_key))!))).toBe(true);

    const dir = mkdtempSync(join(tmpdir(), 'two-hosts-pdf-'));
    try {
      const file = join(dir, 'certificate.pdf');
      writeFileSync(file, pdf);
      expect(spawnSync('pdfsig', [file], { encoding: 'utf8' }).stdout).toMatch(/Signature is Valid\./);
      expect(await verifyPdf(file, {}, (check) => check({ publicKeys: b.keys.publicKeys }))).toMatchObject({ valid: true });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
