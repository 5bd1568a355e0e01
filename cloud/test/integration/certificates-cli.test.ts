import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawPublicKeyBase64 } from '../../src/adapters/certificate-keyring.js';
import { signContent, type CertificateContent } from '../../src/domain/certificates/certificate-content.js';
import { readEmbeddedCertificate } from '../../src/domain/certificates/embedded-certificate.js';
import { renderCertificatePdf } from '../../src/domain/certificates/render-certificate.js';
import { testFonts, testPdfSigner } from '../certificates/fixtures.js';
import { wipeBody } from '../certificates/pipeline.js';
import { BIN, requireBuiltCloud, startCli, waitFor, type Child } from '../certificates/processes.js';
import { freshPostgresUrl, TEST_STORE } from '../support/test-store.js';
import { freshSigner } from '../support/fresh-signer.js';

const run = promisify(execFile);
/** The same, under a name the test below does not shadow (it names a check-in's job id `run`). */
const runProcess = run;

describe('erasure-cloud serve (in-process worker), admin list-certificates, verify-pdf, certificate-public-key', () => {
  let dir: string;
  let serve: Child;
  let base: string;
  let env: Record<string, string>;
  const cli = async (...args: string[]) => JSON.parse((await run(process.execPath, [BIN, ...args, '--json'], { env: { ...process.env, ...env } })).stdout);
  /** Exit code and parsed stdout of a command that may exit non-zero. */
  const cliStatus = (...args: string[]) =>
    run(process.execPath, [BIN, ...args, '--json'], { env: { ...process.env, ...env } }).then(
      (r) => ({ code: 0, json: JSON.parse(r.stdout) }),
      (e: { code: number; stdout: string }) => ({ code: e.code, json: e.stdout ? JSON.parse(e.stdout) : undefined }),
    );

  beforeAll(async () => {
    requireBuiltCloud();
    dir = mkdtempSync(join(tmpdir(), 'erasure-cert-cli-'));
    const keys = JSON.parse((await run(process.execPath, [BIN, 'keygen', '--json'])).stdout);
    env = {
      DATA_DIR: dir,
      PORT: '0',
      INTERNAL_API_SECRET: keys.internal_api_secret,
      DEVICE_TOKEN_PRIVATE_KEY: keys.device_token_private_key,
      PUBLIC_BASE_URL: 'https://erasure.test',
      // serve, its worker and every command below share this store.
      ...(TEST_STORE === 'postgres' ? { DATABASE_URL: await freshPostgresUrl() } : {}),
    };
    serve = startCli(['serve'], env);
    base = await waitFor(() => /listening on (http:\/\/\S+)/.exec(serve.stdout())?.[1], 20_000, 20, 'serve to listen');
  });
  afterAll(async () => {
    serve.process.kill('SIGTERM');
    await serve.exited;
    rmSync(dir, { recursive: true, force: true });
  });

  let signer: ReturnType<typeof freshSigner> | undefined;
  const sign = (body: string) => (signer ??= freshSigner(env.INTERNAL_API_SECRET!))(body);
  const signedPost = (path: string, value: object) => {
    const body = JSON.stringify(value);
    const headers = sign(body);
    return fetch(`${base}${path}`, { method: 'POST', body, headers: { ...headers, 'content-type': 'application/json' } });
  };
  const postWipe = async (jti: string, jobId: string, serial: string) => {
    expect((await signedPost('/internal/wipe_results', wipeBody(jti, jobId, { drive_serial: serial }))).status).toBe(201);
  };
  /** A real metered check-in: the job_id the device suffixes per drive. */
  const checkin = async (jti: string) => ((await (await signedPost('/internal/tokens/validate', { jti })).json()) as { job_id: string }).job_id;

  it('serve certifies over HTTP; list-certificates prints the contract shape newest first; verify-pdf checks offline', async () => {
    const account = await cli('admin', 'create-account', '--name', 'Acme Refurb');
    const token = await cli('admin', 'mint-device-token', '--account', account.id, '--user-email', 'ana@acme.test');
    const run = await checkin(token.jti);
    await postWipe(token.jti, `${run}-0`, 'SER-A');
    await postWipe(token.jti, `${run}-1`, 'SER-B');

    // The in-process worker of `serve` generates them; poll the admin CLI as an operator would.
    let certificates: { id: string; certificate_number: string; wipe_result_id: string; status: string; drive_serial: string }[] = [];
    for (let i = 0; i < 100 && !(certificates.length === 2 && certificates.every((c) => c.status === 'complete')); i++) {
      certificates = await cli('admin', 'list-certificates', '--account', String(account.numeric_id));
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(certificates).toEqual([
      { id: expect.stringMatching(/^cert_/), certificate_number: 'CW-000002', wipe_result_id: expect.stringMatching(/^wr_/), status: 'complete', drive_serial: 'SER-B' },
      { id: expect.stringMatching(/^cert_/), certificate_number: 'CW-000001', wipe_result_id: expect.stringMatching(/^wr_/), status: 'complete', drive_serial: 'SER-A' },
    ]);

    const verified = await (await fetch(`${base}/certificates/${certificates[1]!.id}/verify`)).json();
    expect(verified).toMatchObject({ valid: true, certificate_number: 'CW-000001', account: 'Acme Refurb', drive_serial: 'SER-A' });

    const published = await cli('certificate-public-key');
    expect(published.algorithm).toBe('Ed25519');
    expect(Buffer.from(published.public_key, 'base64')).toHaveLength(32);

    const objects = join(dir, 'objects', 'certificates', account.id, certificates[1]!.id);
    for (const name of ['CW-000001.pdf', 'CW-000001-report.pdf']) {
      const file = join(objects, name);
      const ok = await cliStatus('verify-pdf', file, '--public-key', published.public_key);
      expect(ok).toEqual({ code: 0, json: expect.objectContaining({ valid: true, certificate_number: 'CW-000001', drive_serial: 'SER-A' }) });
    }
    const certificateFile = join(objects, 'CW-000001.pdf');
    expect((await cliStatus('verify-pdf', certificateFile)).code).toBe(0); // default: this deployment's key

    // Outside the deployment: no database is created, and the error says how to point it there.
    const elsewhere = mkdtempSync(join(tmpdir(), 'verify-elsewhere-'));
    const outside = await runProcess(process.execPath, [BIN, 'verify-pdf', certificateFile, '--json'], { cwd: elsewhere, env: { PATH: process.env.PATH ?? '' } }).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }),
    );
    expect(outside.code).toBe(2);
    expect(outside.stderr).toContain('no cloud database at');
    expect(outside.stderr).toContain('--public-key');
    expect(readdirSync(elsewhere)).toEqual([]);
    // Another deployment's database: the key it lacks is named, not "signature does not match".
    const otherDir = mkdtempSync(join(tmpdir(), 'verify-other-'));
    await runProcess(process.execPath, [BIN, 'certificate-public-key', '--json'], { env: { PATH: process.env.PATH ?? '', DATA_DIR: otherDir } });
    const wrongDeployment = await runProcess(process.execPath, [BIN, 'verify-pdf', certificateFile, '--json'], { env: { PATH: process.env.PATH ?? '', DATA_DIR: otherDir } }).then(
      (r) => ({ code: 0, json: JSON.parse(r.stdout) }),
      (e: { code: number; stdout: string }) => ({ code: e.code, json: JSON.parse(e.stdout) }),
    );
    expect(wrongDeployment.code).toBe(1);
    // The PDF signer is checked first; either way the answer names what is missing and where to get it.
    expect(wrongDeployment.json.reason).toMatch(/this verifier does not have/);
    expect(wrongDeployment.json.reason).toContain('--public-key');
    const stranger = rawPublicKeyBase64(generateKeyPairSync('ed25519').publicKey);
    expect(await cliStatus('verify-pdf', certificateFile, '--public-key', stranger)).toMatchObject({ code: 1, json: { valid: false } });

    // A forgery: the serial edited and the document re-rendered with the genuine signature.
    const genuine = (await readEmbeddedCertificate(new Uint8Array(readFileSync(join(objects, 'CW-000001.pdf')))))!;
    const forged = { ...(genuine.content as CertificateContent), drive: { ...(genuine.content as CertificateContent).drive, serial: 'SER-Z' } };
    const forgedPath = join(dir, 'forged.pdf');
    writeFileSync(forgedPath, await renderCertificatePdf(forged, { fonts: testFonts(), signature: genuine.signature, pdfSigner: testPdfSigner() }));
    expect(await cliStatus('verify-pdf', forgedPath, '--public-key', published.public_key)).toMatchObject({ code: 1, json: { valid: false } });
    // …and the same content honestly signed by another key is not ours either.
    const other = generateKeyPairSync('ed25519').privateKey;
    writeFileSync(forgedPath, await renderCertificatePdf(forged, { fonts: testFonts(), signature: signContent(other, forged), pdfSigner: testPdfSigner() }));
    expect((await cliStatus('verify-pdf', forgedPath, '--public-key', published.public_key)).code).toBe(1);
    writeFileSync(forgedPath, 'not a pdf');
    expect((await cliStatus('verify-pdf', forgedPath, '--public-key', published.public_key)).code).toBe(1);

    // Issue 31 item 3: the lot certificate the running server makes (its PDF signer wired by
    // serve) verifies with verify-pdf, itself and each attached certificate.
    await cli('admin', 'create-user', '--account', account.id, '--email', 'admin@acme.test', '--password', 'correct horse battery', '--role', 'admin');
    const login = await fetch(`${base}/login`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@acme.test', password: 'correct horse battery' }) });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    const lot = await fetch(`${base}/app/api/wipes/certificates?format=pdf&ids=${certificates.map((c) => c.wipe_result_id).join(',')}`, { headers: { cookie } });
    expect(lot.status).toBe(200);
    const lotPath = join(dir, 'lot.pdf');
    writeFileSync(lotPath, Buffer.from(await lot.arrayBuffer()));
    const lotVerdict = await cliStatus('verify-pdf', lotPath);
    expect(lotVerdict).toMatchObject({ code: 0, json: { valid: true, kind: 'lot', account: 'Acme Refurb' } });
    expect(lotVerdict.json.certificates.map((c: { certificate_number: string; valid: boolean }) => [c.certificate_number, c.valid])).toEqual([['CW-000002', true], ['CW-000001', true]]);
    expect(await cliStatus('verify-pdf', lotPath, '--public-key', published.public_key)).toMatchObject({ code: 0, json: { valid: true, kind: 'lot' } });
    expect(await cliStatus('verify-pdf', lotPath, '--public-key', stranger)).toMatchObject({ code: 1, json: { valid: false, kind: 'lot' } });
  }, 180_000);

  it('rotate-certificate-key: new certificates carry the new key id, and one signed before the rotation still verifies online and with verify-pdf', async () => {
    const account = await cli('admin', 'create-account', '--name', 'Rotating Refurb');
    const token = await cli('admin', 'mint-device-token', '--account', account.id);
    const listed = async (count: number) => {
      let rows: { id: string; certificate_number: string; status: string }[] = [];
      for (let i = 0; i < 100 && !(rows.length === count && rows.every((c) => c.status === 'complete')); i++) {
        rows = await cli('admin', 'list-certificates', '--account', account.id);
        await new Promise((r) => setTimeout(r, 100));
      }
      return rows;
    };
    const before = await cli('certificate-public-key');
    const run1 = await checkin(token.jti);
    await postWipe(token.jti, `${run1}-0`, 'ROT-OLD');
    const [old] = await listed(1);

    const rotated = await cli('rotate-certificate-key');
    expect(rotated).toEqual({ key_id: expect.stringMatching(/^[0-9a-f]{16}$/), retired_key_id: before.key_id, public_key: expect.any(String) });
    expect(rotated.key_id).not.toBe(before.key_id);

    // The running server signs the next certificate with the new key, without a restart.
    const run2 = await checkin(token.jti);
    await postWipe(token.jti, `${run2}-0`, 'ROT-NEW');
    const [fresh] = await listed(2);
    const pdfOf = (id: string, number: string) => join(dir, 'objects', 'certificates', account.id, id, `${number}.pdf`);
    const newSignature = (await readEmbeddedCertificate(new Uint8Array(readFileSync(pdfOf(fresh!.id, fresh!.certificate_number)))))!.signature;
    const oldSignature = (await readEmbeddedCertificate(new Uint8Array(readFileSync(pdfOf(old!.id, old!.certificate_number)))))!.signature;
    expect(newSignature.split('.')[0]).toBe(rotated.key_id);
    expect(oldSignature.split('.')[0]).toBe(before.key_id);

    for (const cert of [old!, fresh!]) {
      expect(await (await fetch(`${base}/certificates/${cert.id}/verify`)).json()).toMatchObject({ valid: true, certificate_number: cert.certificate_number });
      expect(await cliStatus('verify-pdf', pdfOf(cert.id, cert.certificate_number))).toMatchObject({ code: 0, json: { valid: true } });
    }
    // With a key given by hand, only the key that signed verifies.
    expect((await cliStatus('verify-pdf', pdfOf(old!.id, old!.certificate_number), '--public-key', before.public_key)).code).toBe(0);
    expect((await cliStatus('verify-pdf', pdfOf(old!.id, old!.certificate_number), '--public-key', rotated.public_key)).code).toBe(1);

    const all = await cli('certificate-public-key', '--all');
    expect(all).toMatchObject({ key_id: rotated.key_id, public_key: rotated.public_key });
    expect(all.keys).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ key_id: before.key_id, public_key: before.public_key, retired_at: expect.any(String) }),
        expect.objectContaining({ key_id: rotated.key_id, retired_at: null }),
      ]),
    );
  }, 180_000);
});
