import { execFileSync } from 'node:child_process';
import { generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { devicePrivateKey } from '@erasure/shared';
import { loadCertificateKeys, rotateSigningKey, type CertificateKeys } from '../../src/adapters/certificate-keys.js';
import { certificateKeyId, rawPublicKeyBase64 } from '../../src/adapters/certificate-keyring.js';
import { listSigningKeys } from '../../src/adapters/db/deployment-keys.js';
import type { SqlDatabase } from '../../src/adapters/sql/database.js';
import { isCheckViolation, isUniqueViolation } from '../../src/adapters/sql/errors.js';
import { UsageError } from '../../src/cli/admin.js';
import { rotateCertificateKey } from '../../src/cli/certificates.js';
import { loadConfig } from '../../src/config.js';
import { canonicalize, keyedSignature, signContent, verifyKeyedBytes } from '../../src/domain/certificates/certificate-content.js';
import { addSignaturePlaceholder, signPlaceholder } from '../../src/domain/certificates/pdf-signature.js';
import { certificateFingerprint } from '../../src/domain/certificates/pdf-signing-certificate.js';
import { checkPresigned, presignPath } from '../../src/domain/certificates/presign.js';
import { sampleContent } from '../certificates/fixtures.js';
import { sharedTestStore, TEST_STORE } from '../support/test-store.js';

// Runs on SQLite (project `unit`) and on PostgreSQL (`cloud on postgres`): the keys must be the
// same for every process on one database, whichever store it is.

let dir: string;
/** Opens another connection to this test's database: one per simulated process. */
let connect: () => Promise<SqlDatabase>;
const open: SqlDatabase[] = [];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'erasure-cert-keys-'));
  connect = await sharedTestStore(dir);
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((db) => db.close()));
  rmSync(dir, { recursive: true, force: true });
});

/** A process on its own host: its own connection and its own DATA_DIR. */
async function processOnHost(host: string, signingKeyBase64?: string): Promise<{ db: SqlDatabase; keys: CertificateKeys; dataDir: string }> {
  const db = await connect();
  open.push(db);
  const dataDir = join(dir, host);
  return { db, keys: await loadCertificateKeys({ db, dataDir, signingKeyBase64 }), dataDir };
}

const content = sampleContent();
const bytes = canonicalize(content);
/** A certificate signature as the worker stores it: `<key id>.<base64>`. */
const signedBy = (key: KeyObject) => keyedSignature(certificateKeyId(key), signContent(key, content));
const NOW = Date.now();
const presignedHolds = (secret: Uint8Array, url: string) => {
  const [path, query] = url.split('?') as [string, string];
  return checkPresigned(secret, path, Object.fromEntries(new URLSearchParams(query)), NOW).ok;
};

describe('certificate keys in the database', () => {
  it('are the same for every process on one database, whatever its DATA_DIR, even when they first load at once', async () => {
    const [a, b, c] = await Promise.all(['host-a', 'host-b', 'host-c'].map((host) => processOnHost(host)));
    expect(new Set([a!, b!, c!].map((p) => p.keys.publicKeyBase64)).size).toBe(1);
    expect(b!.keys.urlSigningSecret.equals(a!.keys.urlSigningSecret)).toBe(true);
    expect(c!.keys.urlSigningSecret.equals(a!.keys.urlSigningSecret)).toBe(true);
    // A certificate one host signs verifies on another, and so does a presigned URL.
    const signing = await a!.keys.signing();
    expect(await verifyKeyedBytes(b!.keys.publicKeys, bytes, keyedSignature(signing.keyId, signContent(signing.privateKey, content)))).toBe(true);
    expect(presignedHolds(b!.keys.urlSigningSecret, presignPath(a!.keys.urlSigningSecret, 'certificates/a/c/CW-000001.pdf', NOW))).toBe(true);
    expect(await listSigningKeys(a!.db)).toHaveLength(1);
    expect(existsSync(join(a!.dataDir, 'keys'))).toBe(false); // nothing written to DATA_DIR
  });

  it('a rotation through one process is followed by signing() of another without reload; what it signed before still verifies there', async () => {
    const a = await processOnHost('host-a');
    const b = await processOnHost('host-b');
    const before = await b.keys.signing();
    const signedBefore = keyedSignature(before.keyId, signContent(before.privateKey, content));

    const rotated = await rotateSigningKey(a.db, new Date().toISOString());

    expect(rotated.retired_key_id).toBe(before.keyId);
    const after = await b.keys.signing();
    expect(after.keyId).toBe(rotated.key_id);
    expect(rawPublicKeyBase64(after.privateKey)).toBe(rotated.public_key);
    // B loaded before the rotation: it verifies the old certificate, and finds the new key too.
    expect(await verifyKeyedBytes(b.keys.publicKeys, bytes, signedBefore)).toBe(true);
    expect(await verifyKeyedBytes(b.keys.publicKeys, bytes, keyedSignature(after.keyId, signContent(after.privateKey, content)))).toBe(true);
    const rows = await a.db.many<{ key_id: string; private_seed: string | null; retired_at: string | null }>(
      'SELECT key_id, private_seed, retired_at FROM certificate_signing_keys ORDER BY added_at',
    );
    expect(rows).toEqual([
      { key_id: before.keyId, private_seed: null, retired_at: expect.any(String) }, // the retired seed is dropped
      { key_id: rotated.key_id, private_seed: expect.any(String), retired_at: null },
    ]);
  });

  it('rotations at the same time leave exactly one current key, each new key on record', async () => {
    const a = await processOnHost('host-a');
    const b = await processOnHost('host-b');
    const outcomes = await Promise.allSettled([a, b].map((p) => rotateSigningKey(p.db, new Date().toISOString())));
    const done = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value.key_id] : []));
    expect(done.length).toBeGreaterThan(0);
    const keys = await listSigningKeys(a.db);
    expect(keys.filter((k) => k.retired_at === null)).toHaveLength(1);
    expect(keys.map((k) => k.key_id)).toEqual(expect.arrayContaining(done));
    expect(done).toContain((await a.keys.signing()).keyId);
  });

  it('an unknown key id answers no key (fail closed)', async () => {
    const { keys } = await processOnHost('host-a');
    expect(await keys.publicKeys('0123456789abcdef')).toEqual([]);
  });
});

describe('legacy keys in DATA_DIR/keys', () => {
  /** What an older release left in `${dataDir}/keys`: a retired key, the current seed, the URL secret. */
  function legacyKeys(dataDir: string) {
    const retired = generateKeyPairSync('ed25519').privateKey;
    const seed = randomBytes(32).toString('base64');
    const current = devicePrivateKey(seed);
    const keysDir = join(dataDir, 'keys');
    mkdirSync(keysDir, { recursive: true });
    const keyring = {
      keys: [
        { key_id: certificateKeyId(retired), public_key: rawPublicKeyBase64(retired), added_at: '2025-01-01T00:00:00.000Z', retired_at: '2025-06-01T00:00:00.000Z' },
        { key_id: certificateKeyId(current), public_key: rawPublicKeyBase64(current), added_at: '2025-06-01T00:00:00.000Z', retired_at: null },
      ],
    };
    writeFileSync(join(keysDir, 'certificate-public-keys.json'), `${JSON.stringify(keyring, null, 2)}\n`);
    writeFileSync(join(keysDir, 'certificate-signing-key'), `${seed}\n`, { mode: 0o600 });
    const urlSecret = randomBytes(32);
    writeFileSync(join(keysDir, 'url-signing-secret'), `${urlSecret.toString('hex')}\n`, { mode: 0o600 });
    return { keysDir, retired, current, urlSecret, keyring };
  }

  const snapshot = (keysDir: string) =>
    readdirSync(keysDir).sort().map((name) => ({ name, text: readFileSync(join(keysDir, name), 'utf8'), mtimeMs: statSync(join(keysDir, name)).mtimeMs }));

  it('are imported: old certificates verify, old presigned URLs keep working, the current seed signs on, the files stay untouched', async () => {
    const legacy = legacyKeys(join(dir, 'host-a'));
    const files = snapshot(legacy.keysDir);
    const oldUrl = presignPath(legacy.urlSecret, 'certificates/a/c/CW-000001.pdf', NOW);

    const a = await processOnHost('host-a');

    expect((await a.keys.signing()).keyId).toBe(certificateKeyId(legacy.current));
    expect(await verifyKeyedBytes(a.keys.publicKeys, bytes, signedBy(legacy.retired))).toBe(true);
    expect(await verifyKeyedBytes(a.keys.publicKeys, bytes, signedBy(legacy.current))).toBe(true);
    // A signature from before key ids existed is checked against every key on record.
    expect(await verifyKeyedBytes(a.keys.publicKeys, bytes, signContent(legacy.retired, content))).toBe(true);
    expect(presignedHolds(a.keys.urlSigningSecret, oldUrl)).toBe(true);
    expect(await listSigningKeys(a.db)).toEqual(legacy.keyring.keys);
    expect(snapshot(legacy.keysDir)).toEqual(files);
    // Another host, with no files of its own, gets the imported keys.
    const b = await processOnHost('host-b');
    expect((await b.keys.signing()).keyId).toBe(certificateKeyId(legacy.current));
    expect(presignedHolds(b.keys.urlSigningSecret, oldUrl)).toBe(true);
  });

  it('are imported once: a restart after a rotation keeps the rotated key', async () => {
    const legacy = legacyKeys(join(dir, 'host-a'));
    const first = await processOnHost('host-a');
    const rotated = await rotateSigningKey(first.db, new Date().toISOString());
    const restarted = await processOnHost('host-a');
    expect((await restarted.keys.signing()).keyId).toBe(rotated.key_id);
    expect((await listSigningKeys(restarted.db)).find((k) => k.key_id === certificateKeyId(legacy.current))?.retired_at).toEqual(expect.any(String));
  });

  it('of a second host with its own DATA_DIR are recorded as retired, so what that host signed verifies too', async () => {
    const first = legacyKeys(join(dir, 'host-a'));
    const second = legacyKeys(join(dir, 'host-b'));
    const a = await processOnHost('host-a');
    const b = await processOnHost('host-b');
    expect((await b.keys.signing()).keyId).toBe(certificateKeyId(first.current));
    for (const key of [first.retired, first.current, second.retired, second.current]) {
      expect(await verifyKeyedBytes(a.keys.publicKeys, bytes, signedBy(key))).toBe(true);
    }
    const record = (await listSigningKeys(a.db)).find((k) => k.key_id === certificateKeyId(second.current));
    expect(record?.retired_at).toEqual(expect.any(String));
  });
});

describe('CERTIFICATE_SIGNING_KEY', () => {
  const configured = Buffer.alloc(32, 7).toString('base64');

  it('signs instead of a stored key, and its public half is recorded without its seed', async () => {
    const { db, keys } = await processOnHost('host-a', configured);
    const key = devicePrivateKey(configured);
    expect((await keys.signing()).keyId).toBe(certificateKeyId(key));
    expect(keys.publicKeyBase64).toBe(rawPublicKeyBase64(key));
    expect(await db.many('SELECT key_id, private_seed, retired_at FROM certificate_signing_keys')).toEqual([
      { key_id: certificateKeyId(key), private_seed: null, retired_at: null },
    ]);
    // Unset later: a stored key is made, and certificates the configured key signed still verify.
    const later = await processOnHost('host-a');
    expect((await later.keys.signing()).keyId).not.toBe(certificateKeyId(key));
    expect(await verifyKeyedBytes(later.keys.publicKeys, bytes, signedBy(key))).toBe(true);
  });

  it('refuses rotate-certificate-key, saying the keys stay on record in the database', async () => {
    const { db } = await processOnHost('host-a', configured);
    const config = loadConfig({ DATA_DIR: join(dir, 'host-a'), CERTIFICATE_SIGNING_KEY: configured });
    const refused = rotateCertificateKey(config, db);
    await expect(refused).rejects.toBeInstanceOf(UsageError);
    await expect(refused).rejects.toThrow(/stays on record in the database/);
    expect(await listSigningKeys(db)).toHaveLength(1);
  });
});

// SQLite's migration 009_certificate_keys, or PostgreSQL's 002_certificate_keys (run on either store).
describe(`migration ${TEST_STORE === 'sqlite' ? '009' : 'postgres 002'}_certificate_keys`, () => {
  it('keeps at most one stored key current, and no private half on a retired key', async () => {
    const db = await connect();
    open.push(db);
    const key = (id: string, seed: string | null, retiredAt: string | null) =>
      db.run(
        `INSERT INTO certificate_signing_keys (key_id, public_key, private_seed, added_at, retired_at) VALUES (@id, 'pk', @seed, 'now', @retiredAt)`,
        { id, seed, retiredAt },
      );
    await key('aaaaaaaaaaaaaaaa', 'seed-a', null);
    await expect(key('bbbbbbbbbbbbbbbb', 'seed-b', null)).rejects.toSatisfy(isUniqueViolation);
    await key('cccccccccccccccc', null, null); // a configured key: public half only
    await expect(key('dddddddddddddddd', 'seed-d', 'then')).rejects.toSatisfy(isCheckViolation);
    const version = TEST_STORE === 'sqlite' ? '009_certificate_keys.sql' : '002_certificate_keys.sql';
    expect(await db.one('SELECT version FROM schema_migrations WHERE version = @version', { version })).toEqual({ version });
  });
});

describe('PDF signing certificates in the database (PAdES)', () => {
  const fingerprintOf = async (keys: CertificateKeys) => certificateFingerprint((await keys.pdfSigning()).certificates[0]!);

  it('are the same for every process on one database, rotate with the Ed25519 key, and the retired one stays on record without its key', async () => {
    const [a, b] = await Promise.all(['host-a', 'host-b'].map((host) => processOnHost(host)));
    const before = await fingerprintOf(a!.keys);
    expect(await fingerprintOf(b!.keys)).toBe(before);

    await rotateSigningKey(a!.db, new Date().toISOString());
    const after = await fingerprintOf(b!.keys); // followed without a reload
    expect(after).not.toBe(before);
    expect(await b!.keys.pdfCertificateOnRecord(before)).toBe(true);
    expect(await b!.keys.pdfCertificateOnRecord(after)).toBe(true);
    expect(await b!.keys.pdfCertificateOnRecord('0'.repeat(64))).toBe(false);
    const rows = await a!.db.many<{ fingerprint: string; has_key: number | boolean; retired: number | boolean }>(
      'SELECT fingerprint, private_key IS NOT NULL AS has_key, retired_at IS NOT NULL AS retired FROM certificate_pdf_signers ORDER BY added_at',
    );
    expect(rows.map((r) => [r.fingerprint, Boolean(r.has_key), Boolean(r.retired)])).toEqual([
      [before, false, true],
      [after, true, false],
    ]);
  });

  it('a configured CA-issued certificate and chain sign instead, recorded without the key; pdfsig shows its name and a valid signature', async () => {
    const ca = openSslChain(dir);
    const db = await connect();
    open.push(db);
    const keys = await loadCertificateKeys({ db, dataDir: join(dir, 'host-a'), pdfSigner: ca });
    const signer = await keys.pdfSigning();
    expect(signer.certificates).toHaveLength(2); // the leaf, then the intermediate
    expect(await db.many('SELECT fingerprint, private_key FROM certificate_pdf_signers')).toEqual([
      { fingerprint: certificateFingerprint(signer.certificates[0]!), private_key: null },
    ]);
    const doc = await PDFDocument.create({ updateMetadata: false });
    doc.addPage([200, 200]);
    addSignaturePlaceholder(doc, { name: 'test', reason: 'test', signingTime: new Date('2026-01-01T00:00:00Z') });
    const path = join(dir, 'ca-signed.pdf');
    writeFileSync(path, await signPlaceholder(await doc.save({ useObjectStreams: false }), signer));
    const out = execFileSync('pdfsig', [path], { encoding: 'utf8' });
    expect(out).toContain('Signer Certificate Common Name: Acme Refurb document signing');
    expect(out).toContain('Signature Validation: Signature is Valid.');
    expect(out).toMatch(/^\s*- Total document signed$/m);
  });

  it('refuses a configured key that does not belong to the configured certificate', async () => {
    const ca = openSslChain(dir);
    const db = await connect();
    open.push(db);
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    await expect(loadCertificateKeys({ db, dataDir: join(dir, 'host-a'), pdfSigner: { ...ca, privateKeyPem: other } })).rejects.toThrow(
      'the PDF signing key does not belong to the first certificate',
    );
  });
});

/** A document-signing certificate issued by an intermediate CA, as a CA would deliver it (openssl). */
function openSslChain(dir: string): { certificatePem: string; privateKeyPem: string } {
  const at = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', at('ca.key'), '-out', at('ca.pem'), '-days', '30', '-subj', '/CN=Test Intermediate CA');
  openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', at('leaf.key'), '-out', at('leaf.csr'), '-subj', '/CN=Acme Refurb document signing/O=Acme Refurb');
  openssl('x509', '-req', '-in', at('leaf.csr'), '-CA', at('ca.pem'), '-CAkey', at('ca.key'), '-CAcreateserial', '-out', at('leaf.pem'), '-days', '30');
  return {
    certificatePem: readFileSync(at('leaf.pem'), 'utf8') + readFileSync(at('ca.pem'), 'utf8'),
    privateKeyPem: readFileSync(at('leaf.key'), 'utf8'),
  };
}

// SQLite's migration 011_certificate_pdf_signers, or PostgreSQL's 004 (run on either store).
describe(`migration ${TEST_STORE === 'sqlite' ? '010' : 'postgres 003'}_certificate_pdf_signers`, () => {
  it('keeps at most one stored PDF signer current, and no private key on a retired one', async () => {
    const db = await connect();
    open.push(db);
    const signer = (fingerprint: string, key: string | null, retiredAt: string | null) =>
      db.run(
        `INSERT INTO certificate_pdf_signers (fingerprint, certificate, private_key, added_at, retired_at) VALUES (@fingerprint, 'der', @key, 'now', @retiredAt)`,
        { fingerprint, key, retiredAt },
      );
    await signer('a', 'key-a', null);
    await expect(signer('b', 'key-b', null)).rejects.toSatisfy(isUniqueViolation);
    await signer('c', null, null); // a configured certificate: no key stored
    await expect(signer('d', 'key-d', 'then')).rejects.toSatisfy(isCheckViolation);
  });
});
